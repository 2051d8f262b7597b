import AuthEmulator
import AuthTestSupport
import Foundation
import HTTPServerKit
import JSONKit
import Testing

/// Issue 11 item 9: user-controlled strings and server messages cannot drive the terminal. The
/// real binary prints them with control and bidi characters as visible escapes, even with
/// `--color never`.
@Suite(.serialized) struct EscapeInjectionTests {
  /// Clear screen, an OSC window title, a C1 CSI, a right-to-left override, a newline.
  static let hostile = "Eve\u{1B}[2J\u{1B}]0;pwned\u{07}\u{9B}31m\u{202E}gnp.exe\nfake: line"
  static let shown = #"Eve\e[2J\e]0;pwned\u{7}\u{9B}31m\u{202E}gnp.exe\nfake: line"#
  static let raw: [Character] = ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}"]

  func expectInert(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for character in Self.raw {
      #expect(
        !text.unicodeScalars.contains(character.unicodeScalars.first!),
        "raw U+\(String(character.unicodeScalars.first!.value, radix: 16)) in \(text.debugDescription)",
        sourceLocation: sourceLocation)
    }
  }

  @Test(arguments: ["supabase", "firebase"])
  func displayNameIsEscapedInWhoami(_ provider: String) async throws {
    try await withStarted(CLIEmulator(provider: provider)) { cli in
      let signup = try await cli.authsh(
        "signup", "eve+\(provider)@example.com", "--name", Self.hostile, "--password-env", "AUTHSH_TEST_PW", "--color",
        "never")
      #expect(signup.status == 0, "\(signup.combined)")
      let whoami = try await cli.authsh("whoami", "--color", "never")
      #expect(whoami.status == 0)
      expectInert(whoami.combined)
      #expect(whoami.stdout.contains("name             " + Self.shown + "\n"), "\(whoami.stdout)")
      // The shell reading commands from a pipe renders the same way.
      let piped = try await cli.authsh(stdin: "whoami\n")
      expectInert(piped.combined)
      #expect(piped.stdout.contains(Self.shown), "\(piped.stdout)")
      // JSON keeps the exact value (escaped by the JSON serializer).
      let json = try await cli.authsh("whoami", "--json")
      #expect(try JSON.parse(json.stdout)["user"]?["name"]?.string == Self.hostile)
    }
  }

  @Test func supabaseServerMessageIsEscaped() async throws {
    try await withStarted(CLIEmulator(provider: "supabase")) { cli in
      try await injectFault(
        cli, path: "/auth/v1/token",
        json: [
          "code": .string("odd_\u{1B}[5m"), "msg": .string("Denied \u{1B}[2J\u{1B}]2;title\u{07} \u{202E}evil"),
        ])
      let login = try await cli.authsh(
        "login", "eve@example.com", "--password-env", "AUTHSH_TEST_PW", "--color", "never")
      #expect(login.status == 1)
      expectInert(login.combined)
      #expect(login.stderr.contains(#"error: Denied \e[2J\e]2;title\u{7} \u{202E}evil"#), "\(login.stderr)")
      #expect(login.stderr.contains(#"odd_\e[5m"#))
      // --verbose traces show the same body escaped.
      try await injectFault(cli, path: "/auth/v1/token", json: ["msg": .string("trace \u{1B}[2J")])
      let verbose = try await cli.authsh("login", "eve@example.com", "--password-env", "AUTHSH_TEST_PW", "--verbose")
      expectInert(verbose.combined)
    }
  }

  @Test func firebaseServerMessageIsEscaped() async throws {
    try await withStarted(CLIEmulator(provider: "firebase")) { cli in
      try await injectFault(
        cli, path: "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
        json: [
          "error": ["code": .int(400), "message": .string("ODD_\u{9B}2J : Denied \u{1B}[2J\u{202E}evil")]
        ])
      let login = try await cli.authsh(
        "login", "eve@example.com", "--password-env", "AUTHSH_TEST_PW", "--color", "never")
      #expect(login.status == 1)
      expectInert(login.combined)
      #expect(login.stderr.contains(#"error: Denied \e[2J\u{202E}evil"#), "\(login.stderr)")
      #expect(login.stderr.contains(#"ODD_\u{9B}2J"#))
    }
  }

  /// A script's failure message quotes the server; the console reporter shows it escaped.
  @Test func scriptRunnerShowsServerTextEscaped() async throws {
    try await withStarted(CLIEmulator(provider: "supabase")) { cli in
      try await injectFault(
        cli, path: "/auth/v1/token", json: ["code": .string("odd"), "msg": .string("Denied \u{1B}[2J\u{202E}evil")])
      let file = cli.runner.home + "/t.auth"
      try "test \"name \u{1B}[2J\"\nlogin eve@example.com --password \"{{env.AUTHSH_TEST_PW}}\"\nexpect ok\n"
        .write(toFile: file, atomically: true, encoding: .utf8)
      let run = try await cli.authsh("run", file)
      #expect(run.status == 1)
      expectInert(run.combined)
      #expect(run.combined.contains(#"name \e[2J"#), "\(run.combined)")
      #expect(run.combined.contains(#"Denied \e[2J\u{202E}evil"#), "\(run.combined)")
    }
  }

  private func injectFault(_ cli: CLIEmulator, path: String, json: JSON) async throws {
    let fault: JSON = [
      "faults": [["method": "POST", "path": .string(path), "times": .int(1), "status": .int(400), "json": json]]
    ]
    let answer = await cli.emulator.handle(
      ServerRequest(
        method: "PUT", uri: "/emulator/v1/faults", headers: [("Content-Type", "application/json")], body: fault.bytes))
    #expect(answer.status == 200)
  }
}
