import AuthCore
import AuthTestSupport
import JSONKit
import Testing

@testable import ShellKit

@Suite struct SupportRendererTests {
  func render(_ result: CommandResult, _ line: String) throws -> (out: String, err: String) {
    HumanRenderer.render(
      result, invocation: try SupportHarness.invocation(line), style: Style(color: false, unicode: true), now: 0)
  }

  @Test func aHostileDisplayNameCannotDriveTheTerminal() throws {
    var result = CommandResult(command: "user show")
    let user = SupportHarness.user(1) {
      $0.name = "\u{1B}]0;pwned\u{07}\u{1B}[2JEve\u{202E}"
      $0.email = "eve\u{1B}[31m@example.com"
      $0.metadata = ["note": .string("\u{1B}[1mloud")]
    }
    result.payload = AccountsOutput(lookups: [UserLookup(query: "eve@example.com", user: user)], everyQuery: true)
    var page = UserPage(users: [user], total: 1)
    page.nextPageToken = "t\u{1B}x"
    var list = CommandResult(command: "user list")
    list.payload = UserPageOutput(page: page)
    for text in [try render(result, "user show eve@example.com").out, try render(list, "user list").out] {
      #expect(!text.contains("\u{1B}"), "no raw escape: \(text)")
      #expect(!text.contains("\u{202E}") && !text.contains("\u{07}"))
    }
    #expect(try render(result, "user show eve@example.com").out.contains("\\e]0;pwned\\u{7}\\e[2JEve\\u{202E}"))
  }

  @Test("user list marks a soft-deleted account instead of showing its obfuscated e-mail as an ordinary row")
  func softDeletedRowsAreMarked() throws {
    let gone = SupportHarness.user(2) {
      $0.email = "kX3r9aQ-obfuscated"
      $0.deletedAt = "2026-02-03T04:05:06Z"
    }
    var list = CommandResult(command: "user list")
    list.payload = UserPageOutput(page: UserPage(users: [SupportHarness.user(1), gone], total: 2))
    let out = try render(list, "user list").out
    #expect(out.contains("(deleted 2026-02-03T04:05:06Z)"))
    #expect(!out.contains("kX3r9aQ-obfuscated"))
    #expect(out.contains("user1@example.com"))
    #expect(gone.json["deleted_at"] == "2026-02-03T04:05:06Z" && SupportHarness.user(1).json["deleted_at"] == .null)
  }

  @Test func oneScreenPerAccountSaysWhatSupportAsksFirst() throws {
    var result = CommandResult(command: "user show")
    let google = SupportHarness.user(2) {
      $0.methods = ["google"]
      $0.disabled = true
      $0.disabledUntil = "2026-12-01T00:00:00Z"
      $0.confirmed = false
      $0.confirmedAt = nil
      $0.metadata = ["plan": "pro"]
      $0.identities = [
        AdminIdentity(
          provider: "google", subject: "104235", email: "user2@example.com", lastSignInAt: "2026-01-03T00:00:00Z")
      ]
      $0.factors = [
        AuthFactor(id: "f-1", kind: .totp, name: "phone", createdAt: "2026-01-02T00:00:00Z"),
        AuthFactor(id: "f-2", kind: .totp, status: .unverified),
      ]
    }
    result.payload = AccountsOutput(
      lookups: [
        UserLookup(query: "user1@example.com", user: SupportHarness.user(1)),
        UserLookup(query: "user2@example.com", user: google),
        UserLookup(query: "nobody@example.com", error: AuthError(.userNotFound)),
      ], everyQuery: true)
    let out = try render(result, "user show user1@example.com user2@example.com nobody@example.com").out
    #expect(
      out == """
        user1@example.com
          id               id-1
          e-mail           user1@example.com
          confirmed        yes, at 2026-01-02T03:04:05Z
          created          2026-01-01T00:00:00Z
          last sign-in     never
          disabled         no
          sign-in methods  password
          second factor    none
          name             User 1

        user2@example.com
          id               id-2
          e-mail           user2@example.com
          confirmed        no
          created          2026-01-01T00:00:00Z
          last sign-in     never
          disabled         yes, until 2026-12-01T00:00:00Z
          sign-in methods  google — no password sign-in
          identity         google user2@example.com (104235), last used 2026-01-03T00:00:00Z
          second factor    totp "phone" f-1, since 2026-01-02T00:00:00Z
          second factor    totp f-2 (unverified)
          name             User 2
          metadata         {"plan":"pro"}

        ✗ nobody@example.com: no such account

        Found 2 of 3 accounts (1 missing).

        """)
  }

  @Test func theListIsATableWithTheNextCommandToType() throws {
    var result = CommandResult(command: "user list")
    result.payload = UserPageOutput(
      page: UserPage(users: [SupportHarness.user(1), SupportHarness.user(22)], total: 40, nextPageToken: "abc 2"))
    let out = try render(result, "user list --filter example --limit 2").out
    #expect(
      out == """
        EMAIL               ID     CONFIRMED  LAST SIGN-IN  DISABLED
        user1@example.com   id-1   yes        never         no
        user22@example.com  id-22  yes        never         no
        2 of 40 accounts
        Next page: authsh user list --filter example --limit 2 --page-token 'abc 2'

        """)
  }

  @Test func aLinkIsPrintedPlainlyWithAWarning() throws {
    var result = CommandResult(command: "user link recovery")
    result.payload = LinkOutput(
      lookups: [], link: AdminLink(kind: .recovery, email: "user1@example.com", url: "http://x/verify?token=abc"))
    let (out, err) = try render(result, "user link recovery user1@example.com")
    #expect(out == "http://x/verify?token=abc\n")
    #expect(err.contains("signed in as user1@example.com"))
  }

  @Test func jsonlInTheShellPrintsOneLinePerAccount() throws {
    var result = CommandResult(command: "user show")
    result.payload = AccountsOutput(
      lookups: [
        UserLookup(query: "a@example.com", error: AuthError(.userNotFound)),
        UserLookup(query: "x", user: SupportHarness.user(1)),
      ], everyQuery: true)
    let lines = try render(result, "user show a@example.com x --jsonl").out.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(try JSON.parse(bytes: Array(lines[0].utf8))["ok"] == .bool(false))
  }
}
