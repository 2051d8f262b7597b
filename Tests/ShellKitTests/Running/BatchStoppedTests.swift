import AuthCore
import Testing

@testable import ShellKit

/// A batch stopped while an account's change was about to go out: what its report line says. A
/// stop that wins the race with the change's first attempt sent nothing (`not_started`, never the
/// "may have been applied" of `unknown`); one after an attempt that got no answer may have applied it.
@Suite struct BatchStoppedTests {
  @Test func aStopBeforeAnyAttemptIsNotStarted() async throws {
    let stop = BatchStop()
    let retrier = BatchRetrier(
      backOff: BatchBackOff(clock: SystemBatchClock(), policy: BatchPolicy()), clock: SystemBatchClock(),
      policy: BatchPolicy(), stop: stop)
    stop.stop()
    do {
      _ = try await retrier.run { _ in Issue.record("an attempt was made after the stop") }
      Issue.record("the stopped retrier ran")
    } catch let stopped as BatchStopped {
      #expect(stopped.after == nil && stopped.outcome(sent: true) == .notStarted)
    }
  }

  @Test func aStopAfterAnAttemptWithNoAnswerIsUnknownAndAfterARateLimitNotStarted() {
    #expect(BatchStopped(after: AuthError(.timeout)).outcome(sent: true) == .unknown)
    #expect(BatchStopped(after: AuthError(.rateLimited)).outcome(sent: true) == .notStarted)
    #expect(BatchStopped(after: AuthError(.timeout)).outcome(sent: false) == .notStarted)
  }
}
