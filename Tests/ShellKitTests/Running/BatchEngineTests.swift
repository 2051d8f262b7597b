import AuthCore
import AuthTestSupport
import Foundation
import JSONKit
import ShellKit
import Testing

/// Time that passes only when someone sleeps: every sleep is recorded and moves the clock on.
final class FakeBatchClock: BatchClock {
  private struct State {
    var time = 1000.0
    var sleeps: [Double] = []
  }
  private let state = Guarded(State())
  var sleeps: [Double] { state[\.sleeps] }

  func now() -> Double { state[\.time] }
  func sleep(seconds: Double) async throws {
    state.update {
      $0.sleeps.append(seconds)
      $0.time += seconds
    }
    await Task.yield()
  }
}

/// Counts calls to a request body that fails the first `failures` times with `error`.
final class Flaky: Sendable {
  private let count = Guarded(0)
  var calls: Int { count[\.self] }
  let failures: Int
  let error: AuthError
  init(failures: Int, _ error: AuthError) {
    self.failures = failures
    self.error = error
  }
  func call() throws -> String {
    let count = count.next() + 1
    if count <= failures { throw error }
    return "done"
  }
}

/// The engine of bulk changes: the shared back-off, bounded retries, and the counts, the audit
/// lines, the confirmation and `--only-failed` of a whole `user confirm --from`.
@Suite struct BatchEngineTests {
  let rateLimited = AuthError(.rateLimited, status: 429, retryAfterSeconds: 2)

  func retrier(_ clock: FakeBatchClock, policy: BatchPolicy = BatchPolicy()) -> BatchRetrier {
    BatchRetrier(backOff: BatchBackOff(clock: clock, policy: policy, jitter: { 0.5 }), clock: clock, policy: policy)
  }

  @Test func aRateLimitPausesEveryWorkerOfTheBatchNotJustTheOneThatMetIt() async throws {
    let clock = FakeBatchClock()
    let shared = retrier(clock)
    // One worker meets the limit (Retry-After: 2 s) and retries after the pause.
    let limited = Flaky(failures: 1, rateLimited)
    #expect(try await shared.run { _ in try limited.call() } == "done")
    #expect(limited.calls == 2)
    #expect(clock.sleeps.count == 1)
    // 2 s from the server, plus jitter (here 12.5 %).
    #expect(abs((clock.sleeps.first ?? 0) - 2.25) < 0.001)
    // Another worker starting during the pause waits for the same moment before it sends.
    await shared.backOff.slowDown(retryAfter: 4)
    let other = Flaky(failures: 0, rateLimited)
    #expect(try await shared.run { _ in try other.call() } == "done")
    #expect(clock.sleeps.count == 2)
    #expect(abs(clock.sleeps[1] - 4.5) < 0.001)
    #expect(await shared.backOff.pauses == 2)
  }

  @Test func aLimitMetDuringAPauseDoesNotLengthenIt() async {
    let clock = FakeBatchClock()
    let backOff = BatchBackOff(clock: clock, policy: BatchPolicy(), jitter: { 0 })
    await backOff.slowDown(retryAfter: 10)
    await backOff.slowDown(retryAfter: 10)
    #expect(await backOff.pauses == 1)
    #expect(await backOff.pausedSeconds == 10)
  }

  @Test func withoutRetryAfterTheBackOffDoublesAndIsCapped() async {
    let clock = FakeBatchClock()
    var policy = BatchPolicy()
    policy.maxDelay = 3
    let backOff = BatchBackOff(clock: clock, policy: policy, jitter: { 0 })
    var delays: [Double] = []
    for _ in 0..<5 {
      let before = await backOff.pausedSeconds
      await backOff.slowDown(retryAfter: nil)
      delays.append(await backOff.pausedSeconds - before)
      try? await backOff.wait()
    }
    #expect(delays == [0.5, 1, 2, 3, 3])
  }

  @Test func retriesAreBounded() async throws {
    let clock = FakeBatchClock()
    let policy = BatchPolicy()
    let always = Flaky(failures: 1000, rateLimited)
    await #expect(throws: AuthError.self) { try await retrier(clock, policy: policy).run { _ in try always.call() } }
    #expect(always.calls == policy.rateLimitRetries + 1)

    let outage = Flaky(failures: 1000, AuthError(.serverError, status: 503))
    await #expect(throws: AuthError.self) { try await retrier(clock).run { _ in try outage.call() } }
    #expect(outage.calls == policy.transientRetries + 1)

    // A change that is not safe to repeat (a resend) is not sent again after a timeout.
    let timeout = Flaky(failures: 1000, AuthError(.timeout))
    await #expect(throws: AuthError.self) {
      try await retrier(clock).run(retryTransient: false) { _ in try timeout.call() }
    }
    #expect(timeout.calls == 1)

    // Another 4xx fails that account at once.
    let refused = Flaky(failures: 1000, AuthError(.invalidRequest, status: 400))
    await #expect(throws: AuthError.self) { try await retrier(clock).run { _ in try refused.call() } }
    #expect(refused.calls == 1)

    // A 5xx that clears up: done on the third attempt.
    let blip = Flaky(failures: 2, AuthError(.serverError, status: 502))
    #expect(try await retrier(clock).run { _ in try blip.call() } == "done")
    #expect(blip.calls == 3)
  }

  // MARK: A whole batch through the command runner

  func harness(_ users: [AdminUser], input: String) -> (SupportHarness, FakeBatchClock) {
    var harness = SupportHarness(users)
    let clock = FakeBatchClock()
    harness = harness.with { $0.batchClock = clock }
    harness = harness.with { $0.openInputLines = { _ in TextLines(input) } }
    return (harness, clock)
  }

  static func count(_ result: CommandResult, _ outcome: String) -> Int? { result.batch?["outcomes"]?[outcome]?.int }

  @Test func countsAuditLinesAndReportLinesAreRight() async throws {
    let users = (1...6).map { n in SupportHarness.user(n) { $0.confirmed = n > 4 } }
    let input =
      "# sign-ups the mail outage swallowed\n" + (1...6).map { "user\($0)@example.com" }.joined(separator: "\n")
      + "\n\nnobody@example.com\nnot an address\n"
    var (harness, _) = harness(users, input: input)
    let report = ReportCollector()
    harness = harness.with { $0.openBatchReport = { _, _ in report } }
    let result = try await harness.run("user confirm --from list.txt --yes --jobs 3 --report out.jsonl")
    #expect(Self.count(result, "changed") == 4)
    #expect(Self.count(result, "unchanged") == 2)
    #expect(Self.count(result, "not_found") == 1)
    #expect(Self.count(result, "failed") == 1)
    #expect(result.batch?["total"]?.int == 8)
    #expect(result.batch?["codes"]?["user_not_found"]?.int == 1)
    #expect(result.batch?["codes"]?["validation_failed"]?.int == 1)
    #expect(
      result.notes.first
        == "8 accounts: 4 changed, 2 unchanged, 1 not found, 1 failed (user_not_found 1, validation_failed 1).")
    #expect(ExitStatus.oneShot(result) == 1)
    // Only the accounts that needed it were sent a change.
    #expect(harness.provider.calls.filter { $0.hasPrefix("confirm") }.count == 4)
    // A started and an outcome line per account looked up; none for the line that names none.
    let entries = try harness.audit.entries(since: nil)
    #expect(entries.count == 14)
    #expect(entries.filter { $0.outcome == "started" }.count == 7)
    #expect(entries.filter { $0.outcome == "user_not_found" }.count == 1)
    #expect(entries.allSatisfy { $0.command == "user confirm" })
    #expect(report.records.count == 8)
    #expect(report.records.filter { $0.outcome == .failed }.map(\.input) == ["not an address"])
  }

  @Test func onlyFailedRerunsJustTheFailuresOfAReport() async throws {
    let users = (1...3).map { n in SupportHarness.user(n) { $0.disabled = true } }
    let lines = [
      BatchRecord(input: "user1@example.com", outcome: .changed, message: "Enabled user1@example.com."),
      BatchRecord(input: "user2@example.com", outcome: .failed, code: "rate_limited", message: "Too many attempts."),
      BatchRecord(input: "ghost@example.com", outcome: .notFound, code: "user_not_found", message: "No account."),
      BatchRecord(input: "id-3", outcome: .failed, code: "server_error", message: "Server error."),
    ].map { $0.json.compactText }.joined(separator: "\n")
    let (harness, _) = harness(users, input: lines)
    let result = try await harness.run("user enable --from report.jsonl --only-failed --yes")
    #expect(result.batch?["total"]?.int == 2)
    #expect(Self.count(result, "changed") == 2)
    #expect(
      harness.provider.calls.filter { $0.hasPrefix("enable") }.sorted() == [
        "enable user2@example.com", "enable user3@example.com",
      ])
    #expect(ExitStatus.oneShot(result) == 0)
    // Not a report: --only-failed is a usage error, nothing sent.
    let (plain, _) = self.harness(users, input: "user1@example.com\n")
    let refused = try await plain.run("user enable --from list.txt --only-failed --yes")
    #expect(refused.error?.code == .usage)
    #expect(plain.provider.calls.isEmpty)
    // A report where nothing failed: nothing to do, and that is not an error.
    let clean = BatchRecord(input: "user1@example.com", outcome: .changed, message: "Enabled.").json.compactText
    let (done, _) = self.harness(users, input: clean + "\n")
    let nothing = try await done.run("user enable --from report.jsonl --only-failed --yes")
    #expect(nothing.error == nil)
    #expect(nothing.notes == ["No failed accounts in report.jsonl: nothing to do."])
    #expect(done.provider.calls.isEmpty)
  }

  @Test func aCSVFileGivesItsEmailColumn() async throws {
    let users = (1...2).map { n in SupportHarness.user(n) { $0.confirmed = false } }
    let (harness, _) = harness(users, input: "name,email\n\"Lovelace, Ada\",user1@example.com\nBob,user2@example.com\n")
    let result = try await harness.run("user confirm --from signups.csv --yes")
    #expect(Self.count(result, "changed") == 2)
    #expect(result.batch?["total"]?.int == 2)
  }

  @Test func theBatchIsConfirmedOnceByItsCountOrNeedsYes() async throws {
    let users = (1...3).map { n in SupportHarness.user(n) { $0.confirmed = false } }
    let input = (1...3).map { "user\($0)@example.com" }.joined(separator: "\n")
    let (noTerminal, _) = harness(users, input: input)
    let refused = try await noTerminal.run("user confirm --from list.txt")
    #expect(refused.error?.code == .usage)
    #expect(refused.error?.message.contains("--yes") == true)
    #expect(ExitStatus.oneShot(refused) == 64)
    #expect(noTerminal.provider.calls.isEmpty)
    #expect(try noTerminal.audit.entries(since: nil).isEmpty)

    var (wrong, _) = harness(users, input: input)
    wrong = wrong.with { $0.linePrompter = ScriptedPrompter(["yes"]) }
    let cancelled = try await wrong.run("user confirm --from list.txt")
    #expect(cancelled.error?.code == .cancelled)
    #expect(wrong.provider.calls.isEmpty)

    var (asked, _) = harness(users, input: input)
    let prompter = ScriptedPrompter(["3"])
    asked = asked.with { $0.linePrompter = prompter }
    let done = try await asked.run("user confirm --from list.txt")
    #expect(prompter.prompts == ["user confirm 3 accounts on prod. Type 3 to confirm: "])
    #expect(Self.count(done, "changed") == 3)
  }

  @Test func aDryRunSendsNoChangeAndWritesNoAuditLine() async throws {
    let users = (1...3).map { n in SupportHarness.user(n) { $0.confirmed = n == 1 } }
    let (harness, _) = harness(users, input: (1...3).map { "user\($0)@example.com" }.joined(separator: "\n"))
    let result = try await harness.run("user confirm --from list.txt --dry-run")
    #expect(Self.count(result, "would_change") == 2)
    #expect(Self.count(result, "unchanged") == 1)
    #expect(harness.provider.calls.allSatisfy { $0.hasPrefix("user ") })
    #expect(try harness.audit.entries(since: nil).isEmpty)
    #expect(result.notes.contains("Dry run: nothing was changed."))
  }

  @Test func aReadonlyProfileRefusesTheBatchBeforeReadingOrSending() async throws {
    var harness = SupportHarness([SupportHarness.user(1)], readonly: true)
    harness = harness.with {
      $0.openInputLines = { _ in
        Issue.record("the input was read")
        return TextLines("")
      }
    }
    let result = try await harness.run("user delete --from list.txt --yes")
    #expect(result.error?.code == .readonlyProfile)
    #expect(harness.provider.calls.isEmpty)
  }

  @Test func batchFlagsWithoutFromAreAUsageError() async throws {
    let harness = SupportHarness([SupportHarness.user(1)])
    let result = try await harness.run("user confirm user1@example.com --dry-run")
    #expect(result.error?.code == .usage)
    #expect(harness.provider.calls.isEmpty)
  }

  @Test func linesThatNameNoAccountAreTold() {
    #expect(BatchInput.entry("ada@example.com").problem == nil)
    #expect(BatchInput.entry("00000000-0000-4000-8000-00000000a11e").problem == nil)
    #expect(BatchInput.entry("not an address").problem != nil)
    #expect(BatchInput.entry("ada@").problem != nil)
  }
}

/// `--report` lines kept in memory.
final class ReportCollector: BatchReportSink {
  private let stored = Guarded<[BatchRecord]>([])
  var records: [BatchRecord] { stored[\.self] }
  func write(_ record: BatchRecord) throws { stored.update { $0.append(record) } }
  func close() {}
}
