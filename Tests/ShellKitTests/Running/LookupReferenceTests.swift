import AuthCore
import Essentials
import Testing

@testable import ShellKit

/// What `user show`, `diagnose` and the change commands take: an address, an id or an E.164 number;
/// a name is refused before anything is sent, naming the search that finds it.
@Suite struct LookupReferenceTests {
  @Test(arguments: ["user show ada", "user show 'Ada Lovelace'", "diagnose ada", "user disable ada --yes"])
  func aNameIsAUsageErrorAndNothingIsSent(_ line: String) async throws {
    let harness = SupportHarness([SupportHarness.user(1)])
    let result = try await harness.run(line)
    #expect(result.error?.code == .usage)
    #expect(
      result.error?.message.contains("is not an e-mail address, a user id (a UUID) or an E.164 phone number") == true)
    #expect(result.error?.message.contains("authsh user list --filter ") == true)
    #expect(ExitStatus.oneShot(result) == ExitStatus.usage)
    #expect(harness.provider.calls.isEmpty, "\(harness.provider.calls)")
  }

  @Test func aNameInTheMiddleOfFromEndsTheLookupsAsAUsageError() async throws {
    var harness = SupportHarness([SupportHarness.user(1), SupportHarness.user(2)])
    harness = harness.with {
      $0.openInputLines = { _ in TextLines("user1@example.com\nAda Lovelace\nuser2@example.com\n") }
    }
    let result = try await harness.run("user show --from ticket.txt --jobs 1")
    #expect(result.error?.code == .usage)
    #expect(
      result.error?.message.hasPrefix("In ticket.txt: 'Ada Lovelace' is not an e-mail address") == true,
      "\(result.error?.message ?? "")")
    #expect(!harness.provider.calls.contains("user user2@example.com"))
  }

  @Test func aPhoneNumberIsLookedUpAsOne() async throws {
    let harness = SupportHarness([SupportHarness.user(1)])
    _ = try await harness.run("user show '+1 555 123-4567'")
    #expect(harness.provider.calls == ["user +15551234567"])
  }

  @Test func aBulkLineMayBeAPhoneNumberAndTwoSpellingsAreOneAccount() {
    #expect(BatchInput.entry("+1 555 123-4567") == BatchEntry(input: "+15551234567"))
    var list = BatchList()
    list.add(BatchInput.entry("+15551234567"))
    list.add(BatchInput.entry("+1 555 123 4567"))
    #expect(list.entries.count == 1 && list.duplicates == 1)
  }
}
