import AuthTestSupport
import Foundation
import JSONKit
import Testing

/// Issue 2 acceptance 7: a session outlives the process, refreshes silently, and ends with the
/// inactivity message (exit 4) when the server revokes it.
@Suite(.serialized) struct SessionLifecycleTests {
  @Test(arguments: ["supabase", "firebase"])
  func whoamiAcrossProcessesRefreshesAndExpires(_ provider: String) async throws {
    try await withStarted(CLIEmulator(provider: provider)) { cli in
      let email = "ada+\(provider)@example.com"
      let signup = try await cli.authsh("signup", email, "--name", "Ada Lovelace", "--password-env", "AUTHSH_TEST_PW")
      #expect(signup.status == 0, "\(signup.combined)")

      let whoami = try await cli.authsh("whoami")
      #expect(whoami.status == 0, "\(whoami.combined)")
      #expect(whoami.stdout.contains(email))

      try cli.expireStoredToken()
      let refreshed = try await cli.authsh("whoami", "--json")
      #expect(refreshed.status == 0, "\(refreshed.combined)")
      #expect(refreshed.stdout.contains(#""email": "\#(email)""#))
      let after = try cli.storedSession()
      // The expired session was exchanged silently: the stored expiry is in the future again.
      // (Token bytes may repeat: a JWT minted in the same second for the same session is identical.)
      #expect((after["expires_at"]?.int ?? 0) > Int(Date().timeIntervalSince1970), "the refreshed token is valid")

      try await cli.revokeOnServer(email: email)
      try cli.expireStoredToken()
      let expired = try await cli.authsh("whoami")
      #expect(expired.status == 4, "\(expired.combined)")
      #expect(expired.stderr.contains("You were logged out due to inactivity. Please log in again."))
      #expect(try cli.storedSession().isNull, "the dead session is forgotten")

      let again = try await cli.authsh("whoami")
      #expect(again.status == 4)
      #expect(again.stderr.contains("You are not signed in."))
    }
  }

  @Test(arguments: ["supabase", "firebase"])
  func noSaveLeavesNothingOnDisk(_ provider: String) async throws {
    try await withStarted(CLIEmulator(provider: provider)) { cli throws in
      #expect(
        try await cli.authsh("signup", "bo@example.com", "--name", "Bo", "--password-env", "AUTHSH_TEST_PW").status == 0
      )
      #expect(try await cli.authsh("logout").status == 0)
      #expect(
        try await cli.authsh("login", "bo@example.com", "--password-env", "AUTHSH_TEST_PW", "--no-save", "--remember")
          .status == 0)
      #expect(try await cli.authsh("whoami").status == 4)
    }
  }

  @Test(arguments: ["supabase", "firebase"])
  func passwordSources(_ provider: String) async throws {
    try await withStarted(CLIEmulator(provider: provider)) { cli in
      #expect(
        try await cli.authsh(
          "signup", "cy@example.com", "--name", "Cy", "--password-stdin", stdin: CLIEmulator.password + "\n"
        ).status == 0)
      let noSource = try await cli.authsh("login", "cy@example.com")
      #expect(noSource.status == 1)
      #expect(noSource.stderr.contains("password_required"))
      let wrong = try await cli.authsh("login", "cy@example.com", "--password", "not-the-password")
      #expect(wrong.status == 1)
      #expect(wrong.stderr.contains("Invalid email or password"))
      #expect(
        try await cli.authsh("login", "cy@example.com", "--password-stdin", stdin: CLIEmulator.password + "\n").status
          == 0)
    }
  }
}
