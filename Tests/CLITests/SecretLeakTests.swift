import AuthTestSupport
import Foundation
import JSONKit
import Testing

/// Issue 2 acceptance 5: a known password and the session's tokens never appear in stdout,
/// stderr, `--verbose` traces or any file (the 0600 session file holds the tokens, never the
/// password); `--show-tokens` is the one way to print tokens.
@Suite(.serialized) struct SecretLeakTests {
  @Test(arguments: ["supabase", "firebase"])
  func nothingLeaks(_ provider: String) async throws {
    try await withStarted(CLIEmulator(provider: provider)) { cli in
      let email = "leak+\(provider)@example.com"
      let newPassword = "Second-Known-Pa55word"
      cli.runner.environment["AUTHSH_NEW_PW"] = newPassword
      var outputs: [String] = []
      func run(_ args: [String], stdin: String? = nil) async throws -> BinaryRunner.Outcome {
        let outcome = try await cli.runner.run(args + ["--verbose"], stdin: stdin)
        outputs.append(outcome.combined)
        return outcome
      }
      #expect(try await run(["signup", email, "--name", "Leak Test", "--password", CLIEmulator.password]).status == 0)
      #expect(try await run(["login", email, "--password-env", "AUTHSH_TEST_PW", "--json"]).status == 0)
      #expect(try await run(["login", email, "--password-stdin"], stdin: CLIEmulator.password + "\n").status == 0)
      #expect(try await run(["login", email, "--password", "wrong-but-secret-1"]).status == 1)
      #expect(try await run(["whoami", "--claims", "--json"]).status == 0)
      #expect(try await run(["refresh"]).status == 0)
      #expect(try await run(["status", "--json"]).status == 0)
      #expect(try await run(["reset", email]).status == 0)
      // The link's own secret needs --show-tokens; a Firebase link keeps its (public) apiKey.
      let inbox = try await cli.runner.run(["inbox", email, "--json", "--show-tokens", "--verbose"])
      for secret in [CLIEmulator.password, newPassword, "anon-key-for-cli-tests"] {
        #expect(!inbox.combined.contains(secret))
      }
      let link = try JSON.parse(inbox.stdout)["inbox"]?["link"]?.string ?? ""
      #expect(try await run(["reset", "confirm", link, "--password-env", "AUTHSH_NEW_PW"]).status == 0)
      let session = try cli.storedSession()
      let tokens = [session["access_token"]?.string, session["refresh_token"]?.string].compactMap { $0 }
      #expect(tokens.count == 2)
      #expect(try await run(["whoami"]).status == 0)
      #expect(try await run(["logout"]).status == 0)

      let secrets =
        [CLIEmulator.password, newPassword, "wrong-but-secret-1", "anon-key-for-cli-tests", "api-key-for-cli-tests"]
        + tokens
      for output in outputs {
        for secret in secrets {
          #expect(!output.contains(secret), "leaked \(secret.prefix(6))… in: \(output.prefix(300))")
        }
      }
      #expect(outputs.joined().contains("***"), "secrets print as ***")
      for (path, text) in cli.filesUnderHome() {
        for secret in [CLIEmulator.password, newPassword, "wrong-but-secret-1"] {
          #expect(!text.contains(secret), "\(path)")
        }
      }
    }
  }

  @Test func showTokensPrintsTokens() async throws {
    try await withStarted(CLIEmulator(provider: "supabase")) { cli in
      #expect(
        try await cli.authsh("signup", "tok@example.com", "--name", "Tok", "--password-env", "AUTHSH_TEST_PW").status
          == 0
      )
      let shown = try await cli.authsh("whoami", "--json", "--show-tokens")
      let token = try cli.storedSession()["access_token"]?.string ?? "missing"
      #expect(shown.stdout.contains(token))
      #expect(!shown.combined.contains(CLIEmulator.password))
      let hidden = try await cli.authsh("whoami", "--json")
      #expect(!hidden.stdout.contains(token))
    }
  }
}
