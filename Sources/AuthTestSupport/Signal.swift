import Synchronization

/// A one-shot latch between a test and the code it drives: a route handler calls `fire()` when a
/// request arrives, and the test `wait`s for that instead of sleeping and hoping it did.
package final class Signal: Sendable {
  /// `wait(upTo:)` gave up: the signal never fired.
  package struct TimedOut: Error, CustomStringConvertible {
    package let after: Duration
    package var description: String { "the signal did not fire within \(after)" }
  }

  private struct State {
    var fired = false
    var nextWaiter = 0
    var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
  }
  private let state = Mutex(State())

  package init() {}

  package var isFired: Bool { state.withLock { $0.fired } }

  /// Fires the signal: every `wait` returns, now and later. Firing again does nothing.
  package func fire() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      guard !state.fired else { return [] }
      state.fired = true
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once the signal has fired; throws `TimedOut` when it has not within `timeout` (a
  /// broken test fails instead of hanging), `CancellationError` when the task is cancelled.
  package func wait(upTo timeout: Duration = .seconds(60)) async throws {
    let fired = try await withThrowingTaskGroup(of: Bool.self) { group in
      group.addTask {
        await self.firedOrCancelled()
        return self.isFired
      }
      group.addTask {
        await Stall.hold(upTo: timeout)
        return false
      }
      defer { group.cancelAll() }
      return try await group.next() ?? false
    }
    try Task.checkCancellation()
    guard fired else { throw TimedOut(after: timeout) }
  }

  /// Returns when the signal fires or the task is cancelled, whichever comes first.
  private func firedOrCancelled() async {
    let id = state.withLock { state in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = state.withLock { state -> Bool in
          if state.fired || Task.isCancelled { return true }
          state.waiters[id] = continuation
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
  }
}
