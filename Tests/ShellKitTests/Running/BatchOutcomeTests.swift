import AuthCore
import AuthTestSupport
import Essentials
import Foundation
import JSONKit
import ShellKit
import Testing

/// A bulk change touches exactly the accounts listed, each once, and gives every one an outcome:
/// hostile CSV fields, duplicates, a stop halfway, answers that never came, `--resume`, and what
/// the backend cannot do.
@Suite struct BatchOutcomeTests {
  func harness(_ users: [AdminUser], input: String) -> (SupportHarness, ReportCollector) {
    var harness = SupportHarness(users)
    harness = harness.with { $0.batchClock = FakeBatchClock() }
    harness = harness.with { $0.openInputLines = { _ in TextLines(input) } }
    let report = ReportCollector()
    harness = harness.with { $0.openBatchReport = { _, _ in report } }
    return (harness, report)
  }

  static func count(_ result: CommandResult, _ outcome: String) -> Int? { result.batch?["outcomes"]?[outcome]?.int }

  @Test func aDisplayNameWithALineBreakAndAnAddressAddsNoAccount() async throws {
    let users = [SupportHarness.user(1), SupportHarness.user(2)]
    // As `user export --format csv` writes a person whose own display name is
    // "Evil⏎A,user1@example.com,B": quoted, over two lines.
    let input = "id,email,display_name,email_verified\nid-2,user2@example.com,\"Evil\nA,user1@example.com,B\",true\n"
    for dryRun in [true, false] {
      let (harness, report) = harness(users, input: input)
      let result = try await harness.run(
        "user delete --from evil.csv --yes --report r.jsonl" + (dryRun ? " --dry-run" : ""))
      #expect(result.batch?["total"]?.int == 1)
      #expect(report.records.map(\.input) == ["user2@example.com"])
      #expect(!harness.provider.calls.contains { $0.contains("user1") })
      #expect(harness.provider.accounts["user1@example.com"] != nil)
      #expect(harness.provider.accounts["user2@example.com"] == nil || dryRun)
    }
  }

  @Test func aCSVRecordWithTheWrongNumberOfFieldsIsToldNotGuessed() async throws {
    let users = [SupportHarness.user(1), SupportHarness.user(2)]
    let input = "name,email\nAda,user1@example.com,extra\n\"Bob\",user2@example.com\n,\n"
    let (harness, report) = harness(users, input: input)
    let result = try await harness.run("user confirm --from list.csv --yes --report r.jsonl")
    #expect(result.batch?["total"]?.int == 3)
    #expect(
      report.records.first { $0.input == "line 2" }?.message == "Line 2 has 3 fields where the header names 2: skipped."
    )
    #expect(report.records.first { $0.input == "line 4" }?.message == "Line 4 has no email or id.")
    #expect(harness.provider.calls.filter { $0.hasPrefix("user ") } == ["user user2@example.com"])
  }

  @Test func aQuoteNeverClosedRefusesTheBatchBeforeAnythingIsSent() async throws {
    let (harness, _) = harness(
      [SupportHarness.user(1)], input: "email,name\nuser1@example.com,\"never closed\nuser2@example.com,x\n")
    let result = try await harness.run("user delete --from list.csv --yes")
    #expect(result.error?.code == .usage)
    #expect(
      result.error?.message
        == "Line 2 of list.csv: the quoted field that starts here is never closed; nothing was sent.")
    #expect(harness.provider.calls.isEmpty)
  }

  @Test func theSameAccountTwiceIsOneAccount() async throws {
    let users = [SupportHarness.user(1) { $0.confirmed = false }]
    for dryRun in [false, true] {
      let (harness, report) = harness(users, input: "user1@example.com\nUSER1@example.com\n user1@EXAMPLE.com \n")
      let result = try await harness.run(
        "user confirm --from list.txt --yes --report r.jsonl" + (dryRun ? " --dry-run" : ""))
      #expect(result.error == nil)
      #expect(result.batch?["total"]?.int == 1)
      #expect(result.batch?["duplicates"]?.int == 2)
      #expect(result.notes.contains("2 lines named an account already listed (counted once)."))
      #expect(report.records.count == 1)
      #expect(harness.provider.calls.filter { $0.hasPrefix("user ") }.count == 1)
    }
  }

  @Test func aStoppedBatchGivesEveryAccountAnOutcome() async throws {
    let users = (1...10).map { n in SupportHarness.user(n) { $0.confirmed = false } }
    let (harness, report) = harness(users, input: (1...10).map { "user\($0)@example.com" }.joined(separator: "\n"))
    let stop = BatchStop()
    let io = CommandIO(batchProgress: { progress in if progress.done == 3 { stop.stop() } }, batchStop: stop)
    let result = try await harness.run("user confirm --from list.txt --yes --jobs 1 --report r.jsonl", io: io)
    #expect(result.batch?["total"]?.int == 10)
    #expect(Self.count(result, "changed") == 3)
    #expect(Self.count(result, "not_started") == 7)
    #expect(Set(report.records.map(\.input)) == Set((1...10).map { "user\($0)@example.com" }))
    #expect(result.error?.code == .cancelled)
    #expect(result.notes.contains("To finish the batch: the same command with --resume r.jsonl."))
    #expect(harness.provider.calls.filter { $0.hasPrefix("confirm") }.count == 3)
  }

  @Test func aChangeWithNoAnswerIsUnknownAndResumeLooksItUpAgain() async throws {
    let users = (1...3).map { n in SupportHarness.user(n) }
    let (harness, report) = harness(users, input: (1...3).map { "user\($0)@example.com" }.joined(separator: "\n"))
    harness.provider.appliedThenFailed["user2@example.com"] = AuthError(.timeout, message: "No answer in 30 s.")
    let result = try await harness.run("user delete --from list.txt --yes --report r.jsonl")
    #expect(Self.count(result, "changed") == 2)
    #expect(Self.count(result, "unknown") == 1)
    #expect(ExitStatus.oneShot(result) == 3)
    #expect(
      result.notes.contains(
        "1 account got no answer: the change may have been applied. Check them before trying again."))
    let unknown = try #require(report.records.first { $0.outcome == .unknown })
    #expect(unknown.message.hasPrefix("Sent, but no answer came back"))

    // --resume: user2's delete went through, so it is done; the others are not asked again.
    let lines = report.records.map { $0.json.compactText }.joined(separator: "\n")
    let (again, resumed) = self.harness(Array(harness.provider.accounts.values), input: lines)
    let second = try await again.run("user delete --resume r.jsonl --yes")
    #expect(second.error == nil)
    #expect(second.batch?["total"]?.int == 3)
    #expect(Self.count(second, "changed") == 2)
    #expect(Self.count(second, "unchanged") == 1)
    #expect(again.provider.calls == ["user user2@example.com"])
    #expect(resumed.records.map(\.input) == ["user2@example.com"])
  }

  @Test func resumeDoesExactlyWhatIsLeftAndAFinishedBatchHasNothingToDo() async throws {
    let users = (1...4).map { n in SupportHarness.user(n) { $0.confirmed = false } }
    let lines = [
      BatchRecord(input: "user1@example.com", outcome: .changed, message: "Confirmed."),
      BatchRecord(input: "user2@example.com", outcome: .notStarted, message: "Not started."),
      BatchRecord(input: "user3@example.com", outcome: .failed, code: "rate_limited", message: "Too many."),
      BatchRecord(input: "user4@example.com", outcome: .failed, code: "validation_failed", message: "No."),
      BatchRecord(input: "ghost@example.com", outcome: .notFound, code: "user_not_found", message: "No account."),
    ].map { $0.json.compactText }.joined(separator: "\n")
    let (harness, report) = harness(users, input: lines)
    let result = try await harness.run("user confirm --resume r.jsonl --yes --report new.jsonl")
    #expect(result.error == nil)
    #expect(result.batch?["total"]?.int == 5)
    #expect(
      harness.provider.calls.filter { $0.hasPrefix("confirm") }.sorted() == [
        "confirm user2@example.com", "confirm user3@example.com",
      ])
    // A new --report gets every account: what was done before, then this run's.
    #expect(report.records.count == 5)

    let finished = (report.records.map { $0.json.compactText }).joined(separator: "\n")
    let (done, _) = self.harness(users, input: finished)
    let nothing = try await done.run("user confirm --resume r.jsonl --yes")
    #expect(nothing.error == nil)
    #expect(nothing.notes == ["Nothing left to do: every account in r.jsonl has its outcome."])
    #expect(done.provider.calls.isEmpty)
    #expect(ExitStatus.oneShot(nothing) == 0)
  }

  @Test func aChangeTheBackendCannotMakeIsNotSupportedForEveryAccountAndNothingIsSent() async throws {
    let users = (1...3).map { n in SupportHarness.user(n) }
    for dryRun in [true, false] {
      let (harness, report) = harness(users, input: "user1@example.com\nuser2@example.com\nnot an address\n")
      harness.provider.unsupportedChanges = [.userMetadata]
      let result = try await harness.run(
        "user update --from list.txt --meta plan=pro --yes --report r.jsonl" + (dryRun ? " --dry-run" : ""))
      #expect(Self.count(result, "not_supported") == 2)
      #expect(Self.count(result, "would_change") == 0)
      #expect(result.error?.code == .notSupported)
      #expect(ExitStatus.oneShot(result) == 69)
      #expect(harness.provider.calls.isEmpty)
      #expect(try harness.audit.entries(since: nil).isEmpty)
      #expect(report.records.count == 3)
    }
  }

  @Test func aReportThatFailsOnceTheBatchRunsIsAnIOErrorThatSaysWhatWasDone() async throws {
    let users = (1...3).map { n in SupportHarness.user(n) { $0.confirmed = false } }
    var (harness, _) = harness(users, input: (1...3).map { "user\($0)@example.com" }.joined(separator: "\n"))
    harness = harness.with { $0.openBatchReport = { _, _ in FullDiskReport() } }
    let result = try await harness.run("user confirm --from list.txt --yes --report r.jsonl")
    #expect(Self.count(result, "changed") == 3)
    #expect(harness.provider.calls.filter { $0.hasPrefix("confirm") }.count == 3)
    #expect(result.error?.code == .outputNotWritten)
    #expect(
      result.error?.message
        == "Cannot write the report r.jsonl: No space left on device. The batch went on without it:"
        + " 3 accounts: 3 changed, 0 unchanged, 0 not found, 0 failed.")
    #expect(ExitStatus.oneShot(result) == 74)

    // One that cannot even be created is a usage error, and nothing is sent.
    var (unopened, _) = self.harness(users, input: "user1@example.com\n")
    unopened = unopened.with {
      $0.openBatchReport = { path, _ in
        throw AuthError(.usage, message: "Cannot write the report \(path): no such file.")
      }
    }
    let refused = try await unopened.run("user confirm --from list.txt --yes --report nowhere/r.jsonl")
    #expect(ExitStatus.oneShot(refused) == 64)
    #expect(unopened.provider.calls.isEmpty)
  }

  /// The hint of a stopped batch is "the same command with --resume REPORT": its --from and
  /// --report may stay; the report decides what is left, and its lines are appended to it.
  @Test func theSameCommandWithResumeAddedFinishesTheBatch() async throws {
    let users = (1...6).map { n in SupportHarness.user(n) { $0.confirmed = false } }
    let list = (1...6).map { "user\($0)@example.com" }.joined(separator: "\n")
    let (harness, report) = harness(users, input: list)
    let stop = BatchStop()
    let io = CommandIO(batchProgress: { progress in if progress.done == 2 { stop.stop() } }, batchStop: stop)
    let command = "user confirm --from list.txt --yes --jobs 1 --report r.jsonl"
    let first = try await harness.run(command, io: io)
    #expect(first.notes.contains("To finish the batch: the same command with --resume r.jsonl."))

    var (again, _) = self.harness(Array(harness.provider.accounts.values), input: "")
    let lines = report.records.map { $0.json.compactText }.joined(separator: "\n")
    again = again.with { $0.openInputLines = { path in TextLines(path == "r.jsonl" ? lines : list) } }
    let appended = ReportCollector()
    let opened = Guarded<[String]>([])
    again = again.with {
      $0.openBatchReport = { path, append in
        opened.update { $0.append("\(path) \(append ? "appended" : "emptied")") }
        return appended
      }
    }
    let second = try await again.run(command + " --resume r.jsonl")
    #expect(second.error == nil, "\(String(describing: second.error))")
    #expect(second.batch?["total"]?.int == 6)
    #expect(again.provider.calls.filter { $0.hasPrefix("confirm") }.count == 4)
    #expect(opened[\.self] == ["r.jsonl appended"])
    #expect(appended.records.count == 4)
  }

  @Test func resumeWithTheListOfAnotherBatchSendsNothing() async throws {
    let users = (1...3).map { n in SupportHarness.user(n) { $0.confirmed = false } }
    let lines = [
      BatchRecord(input: "user1@example.com", outcome: .changed, message: "Confirmed."),
      BatchRecord(input: "user2@example.com", outcome: .notStarted, message: "Not started."),
    ].map { $0.json.compactText }.joined(separator: "\n")
    var (harness, _) = harness(users, input: "")
    harness = harness.with {
      $0.openInputLines = { path in
        TextLines(path == "r.jsonl" ? lines : "user1@example.com\nuser3@example.com\n")
      }
    }
    let result = try await harness.run("user confirm --from other.txt --resume r.jsonl --yes")
    #expect(result.error?.code == .usage)
    #expect(
      result.error?.message
        == "other.txt is not the list of the batch in r.jsonl: 2 accounts in one and not the other (user3@example.com); nothing was sent."
    )
    #expect(harness.provider.calls.isEmpty)
    let resumed = try await harness.run("user confirm --resume r.jsonl --only-failed --yes")
    #expect(resumed.error?.code == .usage)
  }
}

/// A `--report` on a disk that filled up: every write fails.
/// A report whose disk fills after `room` lines (the batch's list, written before the first change).
final class FullDiskReport: BatchReportSink, @unchecked Sendable {
  private var room: Int
  init(room: Int = 0) { self.room = room }
  func write(_ record: BatchRecord) throws {
    guard room > 0 else { throw SystemError(ENOSPC) }
    room -= 1
  }
  func close() {}
}
