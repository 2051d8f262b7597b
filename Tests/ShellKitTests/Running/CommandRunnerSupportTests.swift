import AuthCore
import AuthTestSupport
import Essentials
import Foundation
import JSONKit
import Testing

@testable import ShellKit

@Suite struct SupportShowTests {
  @Test func severalAccountsComeBackInInputOrderWithTheMissingOnesReported() async throws {
    // A Supabase id is a UUID.
    let id7 = "00000000-0000-4000-8000-000000000007"
    let harness = SupportHarness((1...30).map { n in SupportHarness.user(n) { if n == 7 { $0.id = id7 } } })
    harness.provider.scramble = true
    let queries = (1...30).map { "user\($0)@example.com" } + ["nobody@example.com", id7]
    let result = try await harness.run("user show " + queries.joined(separator: " ") + " --jobs 8")
    // The result says so too (`ok` false, `expect ok` fails, piped input stops), as the exit status does.
    #expect(result.error?.code == .userNotFound && result.error?.message == "1 of 32 accounts not found.")
    #expect(result.lookups.map(\.query) == queries)
    #expect(result.lookups[30].user == nil && result.lookups[30].error?.code == .userNotFound)
    #expect(result.lookups[31].user?.email == "user7@example.com")
    #expect(ExitStatus.oneShot(result) == ExitStatus.failure, "a missing account makes the exit status 1, like grep")
    // Bounded: several at once, never more than --jobs.
    #expect(harness.provider.mostAtOnce > 1 && harness.provider.mostAtOnce <= 8)
  }

  @Test func everyAccountFoundExitsZeroAndAnOutageExitsThree() async throws {
    let harness = SupportHarness([SupportHarness.user(1), SupportHarness.user(2)])
    let found = try await harness.run("user show user1@example.com user2@example.com")
    #expect(ExitStatus.oneShot(found) == ExitStatus.success)
    harness.provider.failures["user2@example.com"] = AuthError(.networkUnreachable, message: "down")
    let outage = try await harness.run("user show user1@example.com user2@example.com")
    #expect(outage.lookups[0].user != nil && outage.lookups[1].error?.code == .networkUnreachable)
    #expect(ExitStatus.oneShot(outage) == ExitStatus.backend)
  }

  @Test(arguments: [("7d", 604_800), ("2w", 1_209_600), ("1y", 31_536_000), ("36h", 129_600)])
  func aBanReachesTheBackendWithItsDuration(_ given: String, _ seconds: Int) async throws {
    let harness = SupportHarness([SupportHarness.user(1)])
    let result = try await harness.run("user disable user1@example.com --until \(given) --yes")
    #expect(result.error == nil)
    #expect(harness.provider.calls.contains("disable user1@example.com for \(seconds) s"), "\(harness.provider.calls)")
  }

  @Test func jobsAreBoundedByTheFlag() async throws {
    let harness = SupportHarness((1...20).map { SupportHarness.user($0) })
    harness.provider.scramble = true
    _ = try await harness.run(
      "user show " + (1...20).map { "user\($0)@example.com" }.joined(separator: " ") + " --jobs 1")
    #expect(harness.provider.mostAtOnce == 1)
  }

  @Test(arguments: ["0", "65", "many", "-3"])
  func jobsOutsideOneToSixtyFourIsAUsageError(_ value: String) async throws {
    // Refused when the line is parsed, on every surface: nothing can be sent.
    let words = try WordSplitter.split("user show user1@example.com --jobs=\(value)")
    for surface in [Surfaces.oneShot, .repl, .script] {
      guard case .failure(let problem) = InvocationParser.parse(words, surface: surface) else {
        Issue.record("--jobs=\(value) parsed on \(surface)")
        continue
      }
      #expect(problem.message == "--jobs takes a number from 1 to 64, not '\(value)'")
    }
  }

  @Test func fromFileSkipsBlankLinesAndCommentsAndAddsToTheArguments() async throws {
    var harness = SupportHarness([SupportHarness.user(1), SupportHarness.user(2), SupportHarness.user(3)])
    harness = harness.with {
      $0.openInputLines = { path in
        #expect(path == "ticket.txt")
        return TextLines("# from ticket 4711\nuser2@example.com\n\n   \n  user3@example.com  \r\n# done\n")
      }
    }
    let result = try await harness.run("user show user1@example.com --from ticket.txt")
    #expect(result.lookups.map(\.query) == ["user1@example.com", "user2@example.com", "user3@example.com"])
    #expect(result.lookups.allSatisfy { $0.user != nil })
  }

  @Test func aMissingFileIsAClearUsageErrorAndNothingIsSent() async throws {
    let harness = SupportHarness([SupportHarness.user(1)])
    let path = NSTemporaryDirectory() + "authsh-no-such-\(UUID().uuidString).txt"
    let result = try await harness.run("user show --from \(path)")
    #expect(result.error?.code == .usage)
    #expect(result.error?.message == "Cannot read \(path): no such file.")
    #expect(ExitStatus.oneShot(result) == ExitStatus.usage)
    #expect(harness.provider.calls.isEmpty)
  }

  @Test func anEmptyListIsAUsageError() async throws {
    var harness = SupportHarness()
    harness = harness.with { $0.openInputLines = { _ in TextLines("# nothing here\n\n") } }
    let fromStdin = try await harness.run("user show --from -")
    #expect(fromStdin.error?.message == "Standard input has no addresses (one per line).")
    let none = try await harness.run("user show")
    #expect(none.error?.code == .usage)
  }

  @Test func jsonlStreamsEachLookupAsItCompletesAndProgressCounts() async throws {
    let harness = SupportHarness((1...5).map { SupportHarness.user($0) })
    let seen = Guarded<[String]>([])
    let progress = Guarded<[String]>([])
    let io = CommandIO(
      lookupStream: { lookup in seen.update { $0.append(lookup.query) } },
      lookupProgress: { done, total in progress.update { $0.append("\(done)/\(total.map(String.init) ?? "?")") } })
    let result = try await harness.run(
      "user show user1@example.com user2@example.com nobody@example.com --jsonl", io: io)
    #expect(Set(seen[\.self]) == ["user1@example.com", "user2@example.com", "nobody@example.com"])
    #expect(progress[\.self] == ["1/3", "2/3", "3/3"])
    // Streamed, not kept: an endless input must not grow a list.
    #expect(result.streamedLookups == 3 && result.lookups.isEmpty)
    #expect(result.error?.code == .userNotFound)
  }

  @Test func jsonHasOneResultPerAccount() async throws {
    let harness = SupportHarness([SupportHarness.user(1)])
    let result = try await harness.run("user show user1@example.com nobody@example.com")
    let users = result.json(now: 0, revealTokens: false)["users"]?.array ?? []
    #expect(users.count == 2)
    #expect(users[0]["ok"] == .bool(true) && users[0]["user"]?["email"] == .string("user1@example.com"))
    #expect(users[1]["ok"] == .bool(false) && users[1]["error"]?["code"] == .string("user_not_found"))
  }
}

@Suite struct SupportChangeTests {
  @Test(arguments: [
    "user confirm user1@example.com", "user resend user1@example.com", "user disable user1@example.com --yes",
    "user enable user1@example.com", "user delete user1@example.com --yes", "user signout user1@example.com --yes",
    "user create new@example.com --password-env NOPE", "user set-password user1@example.com --yes --password-env NOPE",
  ])
  func aReadonlyProfileRefusesEveryChangeBeforeAnythingIsSent(_ line: String) async throws {
    let harness = SupportHarness([SupportHarness.user(1)], readonly: true)
    let result = try await harness.run(line)
    #expect(result.error?.code == .readonlyProfile)
    #expect(ExitStatus.oneShot(result) == ExitStatus.failure)
    #expect(result.error?.message.contains("'prod'") == true, "the message names the profile")
    #expect(harness.provider.calls.isEmpty, "not even the lookup is sent: \(harness.provider.calls)")
    #expect((try harness.audit.entries(since: nil)).isEmpty)
  }

  @Test func aReadonlyProfileStillReads() async throws {
    let harness = SupportHarness([SupportHarness.user(1)], readonly: true)
    #expect(try await harness.run("user show user1@example.com").lookups.first?.user != nil)
    #expect(try await harness.run("diagnose user1@example.com").diagnosis != nil)
    #expect(try await harness.run("user list").userPage?.users.count == 1)
  }

  @Test func destructiveWithoutATerminalNeedsYes() async throws {
    let harness = SupportHarness([SupportHarness.user(1)])
    let refused = try await harness.run("user delete user1@example.com")
    #expect(refused.error?.code == .usage)
    #expect(refused.error?.message.contains("--yes") == true)
    #expect(ExitStatus.oneShot(refused) == ExitStatus.usage)
    #expect(harness.provider.accounts["user1@example.com"] != nil)
    #expect(!harness.provider.calls.contains { $0.hasPrefix("delete") })
    let done = try await harness.run("user delete user1@example.com --yes")
    #expect(done.error == nil)
    #expect(harness.provider.accounts["user1@example.com"] == nil)
    #expect(done.notes == ["Deleted user1@example.com (id-1)."])
  }

  @Test func theConfirmationPromptShowsAfterTheLookupAndAWrongAnswerChangesNothing() async throws {
    var harness = SupportHarness([SupportHarness.user(1)])
    let prompter = ScriptedPrompter(["user2@example.com", "user1@example.com"])
    harness = harness.with { $0.linePrompter = prompter }
    let wrong = try await harness.run("user disable user1@example.com")
    #expect(wrong.error?.code == .cancelled)
    #expect(harness.provider.calls == ["user user1@example.com"], "looked up, nothing changed")
    let right = try await harness.run("user disable user1@example.com")
    #expect(right.error == nil)
    #expect(harness.provider.accounts["user1@example.com"]?.disabled == true)
    #expect(prompter.prompts.count == 2)
  }

  @Test func notDestructiveChangesDoNotAsk() async throws {
    var harness = SupportHarness([SupportHarness.user(1) { $0.confirmed = false }])
    let prompter = ScriptedPrompter([])
    harness = harness.with { $0.linePrompter = prompter }
    let result = try await harness.run("user confirm user1@example.com")
    #expect(result.error == nil)
    #expect(result.notes == ["Confirmed the e-mail address of user1@example.com."])
    #expect(prompter.prompts.isEmpty)
  }

  @Test func everyChangeWritesItsAttemptThenItsOutcomeAlsoOnFailure() async throws {
    let harness = SupportHarness([SupportHarness.user(1)])
    _ = try await harness.run("user confirm user1@example.com")
    _ = try await harness.run("user signout user1@example.com --yes")
    _ = try await harness.run("user enable nobody@example.com")
    _ = try await harness.run("user show user1@example.com")
    let all = (try harness.audit.entries(since: nil))
    #expect(all.map(\.outcome) == ["started", "ok", "started", "not_supported", "started", "user_not_found"])
    #expect(
      all[0].targetEmail == "user1@example.com" && all[0].targetId == nil, "written before the account is looked up")
    let entries = all.filter { $0.outcome != "started" }
    #expect(entries.map(\.command) == ["user confirm", "user signout", "user enable"])
    #expect(entries.map(\.outcome) == ["ok", "not_supported", "user_not_found"])
    #expect(entries[0].targetId == "id-1" && entries[0].targetEmail == "user1@example.com")
    #expect(entries[0].profile == "prod" && entries[0].backend.contains("127.0.0.1:9999"))
    #expect(entries[2].targetEmail == "nobody@example.com" && entries[2].targetId == nil)
  }

  @Test func createSaysWhatItMade() async throws {
    let harness = SupportHarness()
    let result = try await harness.run("user create ada@example.com --confirmed")
    #expect(
      result.notes == [
        "Created ada@example.com (id-new), e-mail confirmed; it has no password (set one with 'authsh user set-password')."
      ])
    #expect((try harness.audit.entries(since: nil)).last?.targetId == "id-new")
  }

  @Test func auditSinceFiltersOldEntries() async throws {
    let harness = SupportHarness()
    try harness.audit.append(
      AuditEntry(
        time: "2000-01-01T00:00:00Z", profile: "p", backend: "b", command: "user enable", targetId: nil,
        targetEmail: "old@example.com", outcome: "ok"))
    try harness.audit.append(
      AuditEntry(
        time: CivilTime.iso8601(seconds: Int(Date().timeIntervalSince1970)), profile: "p", backend: "b",
        command: "user enable", targetId: nil, targetEmail: "new@example.com", outcome: "ok"))
    #expect(try await harness.run("audit --all-backends").audit?.count == 2)
    #expect(try await harness.run("audit --since 24h --all-backends").audit?.map(\.targetEmail) == ["new@example.com"])
    // Backend "b" is not the one in use: left out, and counted.
    let own = try await harness.run("audit")
    #expect(own.audit?.isEmpty == true)
    #expect(
      own.notes.first?.hasPrefix("2 lines about other backends are not shown: only supabase ") == true, "\(own.notes)")
  }
}
