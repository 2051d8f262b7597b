import AuthEmulator
import AuthTestSupport
import Foundation
import HTTPServerKit
import JSONKit
import Testing

/// `logout` ends only the session authsh holds unless `--scope` says otherwise, and says which.
@Suite struct LogoutScopeTests {
  @Test func supabaseEndsThisSessionByDefaultAndEverySessionWithGlobal() async throws {
    try await withStarted(CLIEmulator(provider: "supabase")) { cli in
      #expect(
        try await cli.authsh("signup", "ada@example.com", "--name", "Ada", "--password-env", "AUTHSH_TEST_PW").status
          == 0
      )
      // A second session elsewhere (the person's phone): the default logout must not end it.
      let phone = try await cli.authsh(
        "login", "ada@example.com", "--password-env", "AUTHSH_TEST_PW", "--json", "--show-tokens", "--no-save")
      let refresh = try #require(JSON.parse(phone.stdout)["session"]?["refresh_token"]?.string)
      let local = try await cli.authsh("logout")
      #expect(local.status == 0)
      #expect(
        local.stdout.contains(
          "Signed out of this session only; other sessions stay signed in (--scope global ends them all)."))
      #expect(try cli.storedSession() == .null)
      let stillAlive = await cli.emulator.handle(
        ServerRequest(
          method: "POST", uri: "/auth/v1/token?grant_type=refresh_token",
          headers: [("Content-Type", "application/json")],
          body: Array(#"{"refresh_token":"\#(refresh)"}"#.utf8)))
      #expect(stillAlive.status == 200, "the phone's session survived the default logout")

      #expect(try await cli.authsh("login", "ada@example.com", "--password-env", "AUTHSH_TEST_PW").status == 0)
      let global = try await cli.authsh("logout", "--scope", "global")
      #expect(global.stdout.contains("Signed out everywhere: every session of this account has ended."))
    }
  }

  @Test func firebaseForgetsTheSessionAndCannotEndOthers() async throws {
    try await withStarted(CLIEmulator(provider: "firebase")) { cli in
      #expect(
        try await cli.authsh("signup", "ada@example.com", "--name", "Ada", "--password-env", "AUTHSH_TEST_PW").status
          == 0
      )
      let global = try await cli.authsh("logout", "--scope", "global")
      #expect(global.status == 1)
      #expect(global.stderr.contains("Firebase has no sign-out call for other sessions"))
      #expect(global.stderr.contains("authsh user signout EMAIL"))
      let local = try await cli.authsh("logout")
      #expect(local.status == 0)
      #expect(local.stdout.contains("the session is forgotten here"))
      #expect(try cli.storedSession() == .null)
    }
  }
}
