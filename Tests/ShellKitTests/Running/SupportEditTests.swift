import AuthCore
import AuthTestSupport
import JSONKit
import Testing

@testable import ShellKit

/// `user set-email`, `user update`, a pending e-mail change in `diagnose`, and `audit EMAIL`.
@Suite struct SupportEditTests {
  @Test func setEmailChangesTheAddressAndIsAudited() async throws {
    let harness = SupportHarness([SupportHarness.user(1)], operatorName: "ada@desk")
    let result = try await harness.run("user set-email user1@example.com ada@new.example --confirmed")
    #expect(result.error == nil)
    #expect(result.lookups.first?.user?.email == "ada@new.example")
    #expect(result.notes.first?.contains("to ada@new.example (confirmed)") == true)
    // The attempt is recorded before it is sent, the outcome after.
    let entries = try harness.audit.entries(since: nil)
    #expect(entries.map(\.outcome) == ["started", "ok"])
    #expect(entries.map(\.command) == ["user set-email", "user set-email"])
    #expect(entries.first?.operatorName == "ada@desk")
  }

  @Test func aReadonlyProfileRefusesSetEmailAndClaims() async throws {
    for line in [
      "user set-email user1@example.com x@y.example",
      "user update user1@example.com --claims '{\"role\":\"admin\"}' --yes",
    ] {
      let harness = SupportHarness([SupportHarness.user(1)], readonly: true)
      let result = try await harness.run(line)
      #expect(result.error?.code == .readonlyProfile, "\(line)")
      #expect(harness.provider.calls.isEmpty)
    }
  }

  @Test func nameAndMetadataNeedNoConfirmationButClaimsAndAppMetadataDo() async throws {
    var harness = SupportHarness([SupportHarness.user(1)])
    let plain = try await harness.run("user update user1@example.com --name Ada --meta plan=pro --meta seats=3")
    #expect(plain.error == nil)
    #expect(plain.lookups.first?.user?.name == "Ada")
    #expect(plain.lookups.first?.user?.metadata == ["plan": "pro", "seats": 3])
    for grant in ["--claims '{\"role\":\"admin\"}'", "--app-meta role=admin"] {
      let refused = try await harness.run("user update user1@example.com " + grant)
      #expect(ExitStatus.oneShot(refused) == ExitStatus.usage, "\(grant) without a terminal needs --yes")
      #expect(refused.error?.message.contains("--yes") == true)
      let prompter = ScriptedPrompter(["user1@example.com"])
      harness = harness.with { $0.linePrompter = prompter }
      let asked = try await harness.run("user update user1@example.com " + grant)
      harness = harness.with { $0.linePrompter = nil }
      #expect(asked.error == nil && prompter.prompts.count == 1)
      #expect(asked.lookups.first?.user?.appMetadata?["role"] == "admin")
    }
    let usage = ErrorCode.usage.rawValue
    let outcomes = try harness.audit.entries(since: nil).map(\.outcome).filter { $0 != "started" }
    #expect(outcomes == ["ok", usage, "ok", usage, "ok"])
  }

  @Test func updateWithNothingToChangeOrABadPairIsAUsageError() async throws {
    let harness = SupportHarness([SupportHarness.user(1)])
    for line in [
      "user update user1@example.com", "user update user1@example.com --meta novalue",
      "user update user1@example.com --claims [1]",
    ] {
      let result = try await harness.run(line)
      #expect(result.error?.code == .usage, "\(line)")
    }
    #expect(harness.provider.calls.isEmpty)
  }

  @Test func diagnoseOfAnAddressSomeoneIsChangingToSaysSo() async throws {
    let harness = SupportHarness([
      SupportHarness.user(1) {
        $0.pendingEmail = "ada@new.example"
        $0.emailChangeSentAt = "2026-11-27T08:00:00Z"
      }
    ])
    let result = try await harness.run("diagnose ada@new.example")
    let finding = try #require(result.diagnosis?.findings.first)
    #expect(finding.code == "email_change_pending")
    #expect(finding.message.contains("user1@example.com asked to change to it"))
    #expect(finding.fix == "authsh user set-email user1@example.com ada@new.example --confirmed")
    let owner = try await harness.run("diagnose user1@example.com")
    #expect(owner.diagnosis?.findings.map(\.code).contains("email_change_pending") == true)
    #expect(owner.diagnosis?.canSignIn == true)
  }

  @Test func auditFiltersByAccountAndShowsTheOperator() async throws {
    let harness = SupportHarness([SupportHarness.user(1), SupportHarness.user(2)], operatorName: "ada@desk")
    _ = try await harness.run("user confirm user1@example.com")
    _ = try await harness.run("user confirm user2@example.com")
    _ = try await harness.run("user enable user1@example.com")
    let one = try await harness.run("audit USER1@example.com")
    #expect(one.audit?.filter { $0.outcome == "ok" }.map(\.command) == ["user confirm", "user enable"])
    let byId = try await harness.run("audit id-2")
    #expect(byId.audit?.filter { $0.outcome == "ok" }.map(\.targetEmail) == ["user2@example.com"])
    let invocation = try SupportHarness.invocation("audit")
    let all = try await harness.run("audit")
    let text = SupportRenderer.render(all, invocation: invocation, style: Style(color: false))?.out ?? []
    #expect(text.first?.contains("OPERATOR") == true)
    #expect(text.dropFirst().allSatisfy { $0.contains("ada@desk") })
  }

  @Test func diagnoseOfATypoSuggestsTheCloseAddressAtTheSameDomain() async throws {
    let harness = SupportHarness([
      SupportHarness.user(1) { $0.email = "alice@example.com" },
      SupportHarness.user(2) { $0.email = "alice@other.example" },
      SupportHarness.user(3) { $0.email = "bob@example.com" },
    ])
    let result = try await harness.run("diagnose alcie@example.com")
    let finding = try #require(result.diagnosis?.findings.first)
    #expect(finding.code == "no_account")
    #expect(finding.message == "There is no account for alcie@example.com. Did you mean alice@example.com?")
    #expect(finding.fix == "authsh diagnose alice@example.com")
    let none = try await harness.run("diagnose zed@example.com")
    #expect(none.diagnosis?.findings.first?.message.contains("Did you mean") == false)
  }

  @Test func diagnoseOfAnAccountDeletedWithAuthshSaysWhenAndByWhom() async throws {
    let harness = SupportHarness([SupportHarness.user(1)], operatorName: "ada@desk")
    _ = try await harness.run("user delete user1@example.com --yes")
    let result = try await harness.run("diagnose user1@example.com")
    let finding = try #require(result.diagnosis?.findings.first)
    #expect(finding.code == "account_deleted")
    #expect(finding.message.contains("it was deleted at") && finding.message.contains("by ada@desk"))
  }

  /// A bulk update run twice: the second finds every account as asked and sends nothing.
  @Test(arguments: ["--meta plan=pro", "--claims '{\"role\":\"admin\"}'", "--name 'User 1' --app-meta tier=2"])
  func aBulkUpdateAlreadyAppliedIsUnchanged(_ flags: String) async throws {
    var harness = SupportHarness([SupportHarness.user(1), SupportHarness.user(2)])
    harness = harness.with { $0.openInputLines = { _ in TextLines("user1@example.com\nuser2@example.com\n") } }
    let first = try await harness.run("user update --from m.txt \(flags) --yes")
    #expect(first.batch?["outcomes"]?["changed"]?.int == 2)
    #expect(harness.provider.calls.filter { $0.hasPrefix("update") }.count == 2)
    let second = try await harness.run("user update --from m.txt \(flags) --yes")
    #expect(second.error == nil)
    #expect(second.batch?["outcomes"]?["unchanged"]?.int == 2)
    #expect(second.notes.first == "2 accounts: 0 changed, 2 unchanged, 0 not found, 0 failed.")
    #expect(harness.provider.calls.filter { $0.hasPrefix("update") }.count == 2, "nothing sent the second time")
  }

  @Test(arguments: [
    ("alcie@example.com", ["alice@example.com"]), ("alice@example.com", []), ("bobb@example.com", ["bob@example.com"]),
    ("roberto@example.com", ["robert@example.com"]), ("al@example.com", []),
  ])
  func nearMissesStayAtTheDomainAndWithinAFewEdits(_ email: String, _ expected: [String]) {
    let candidates = [
      "alice@example.com", "alice@else.example", "bob@example.com", "robert@example.com", "x@example.com",
    ]
    #expect(Diagnosis.nearMisses(of: email, among: candidates) == expected)
  }
}
