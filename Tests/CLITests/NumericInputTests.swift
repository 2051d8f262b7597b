import AuthTestSupport
import Foundation
import JSONKit
import Testing

/// Out-of-range numbers from outside (a saved session file, a flag, a shell line) end in a clear
/// error, never a trap.
@Suite(.serialized) struct NumericInputTests {
  /// A session file written with an absurd expiry (an older version saved what the server said):
  /// every session command names the file and the fix; `logout` removes it; nothing crashes.
  @Test(arguments: ["supabase", "firebase"])
  func unusableSavedSessionIsAClearError(_ provider: String) async throws {
    try await withStarted(CLIEmulator(provider: provider)) { cli in
      #expect(
        try await cli.authsh("signup", "ada@example.com", "--name", "Ada", "--password-env", "AUTHSH_TEST_PW").status
          == 0
      )
      for absurd in [JSON.int(-9_223_372_036_854_775_807), .int(Int.max), .double(1e300), .string("soon")] {
        try rewriteStoredExpiry(cli, absurd)
        for command in [["whoami"], ["status"], ["refresh"], ["whoami", "--json"]] {
          let outcome = try await cli.runner.run(command)
          #expect(outcome.status == 78, "\(command) with expires_at \(absurd.compactText): \(outcome.combined)")
          #expect(outcome.combined.contains(cli.sessionFile), "the message names the file: \(outcome.combined)")
          #expect(outcome.combined.contains("authsh logout"), "the message gives the fix: \(outcome.combined)")
        }
        let logout = try await cli.authsh("logout")
        #expect(logout.status == 0, "\(logout.combined)")
        #expect(logout.stdout.contains("Removed the saved session"))
        #expect(try cli.storedSession().isNull)
        #expect(try await cli.authsh("whoami").status == 4, "signed out, as after any logout")
        #expect(try await cli.authsh("login", "ada@example.com", "--password-env", "AUTHSH_TEST_PW").status == 0)
      }
    }
  }

  @Test("--timeout out of range is a usage error (exit 64), before anything is sent")
  func hugeTimeoutIsAUsageError() async throws {
    try await withStarted(CLIEmulator(provider: "supabase")) { cli in
      for text in ["10000000000000000000s", "1e300", "inf", "nan", "25h", "86401"] {
        let outcome = try await cli.authsh("login", "ada@example.com", "--password", "x", "--timeout", text)
        #expect(outcome.status == 64, "--timeout \(text): \(outcome.combined)")
        #expect(outcome.stderr.contains("--timeout takes a duration up to 24h"), "\(outcome.stderr)")
      }
    }
  }

  @Test("a .auth script with an out-of-range duration fails its check (exit 2), nothing is sent")
  func scriptDurationsAreChecked() async throws {
    try await withStarted(CLIEmulator(provider: "supabase")) { cli in
      let file = cli.runner.home + "/durations.auth"
      let script = "provider supabase\ntest \"t\"\nlogin ada@example.com --password x --timeout 1e300s\n"
      try Data(script.utf8).write(to: URL(fileURLWithPath: file))
      let outcome = try await cli.authsh("run", file)
      #expect(outcome.status == 2, "\(outcome.combined)")
      #expect(outcome.combined.contains("--timeout takes a duration up to 24h such as 30s or 2m, not '1e300s'"))
      #expect(
        outcome.combined.contains("nothing was run") || outcome.combined.contains("1 error"), "\(outcome.combined)")
    }
  }

  func rewriteStoredExpiry(_ cli: CLIEmulator, _ value: JSON) throws {
    let url = URL(fileURLWithPath: cli.sessionFile)
    guard case .object(var root) = try JSON.parse(bytes: Array(try Data(contentsOf: url))),
      case .object(var session)? = root["session"]
    else {
      Issue.record("no stored session")
      return
    }
    session["expires_at"] = value
    root["session"] = .object(session)
    try Data(JSON.object(root).prettyText.utf8).write(to: url)
    chmod(cli.sessionFile, 0o600)
  }
}
