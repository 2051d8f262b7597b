import AuthEmulator
import AuthTestSupport
import Foundation
import JSONKit
import Testing

/// The `--json` result model of every command that takes `--json`, through the built binary
/// against an in-process emulator, on both providers: the account and session commands here
/// (`Snapshots/json-<provider>.txt`), the support commands in `SupportGoldenTests`. A change to the
/// JSON a script reads shows up as a diff; `AUTHSH_RECORD=1` re-records. The same placeholders as
/// the support transcript stand for ids, times, tokens and durations.
@Suite(.serialized) struct JSONGoldenTests {
  static let password = "Golden-json-pw-1"

  @Test(arguments: ["supabase", "firebase"])
  func everyAccountCommandAsJSON(_ provider: String) async throws {
    let cli = try await CLIEmulator(provider: provider)
    do {
      try await transcript(cli, provider)
    } catch {
      await cli.stop()
      throw error
    }
    await cli.stop()
  }

  func transcript(_ cli: CLIEmulator, _ provider: String) async throws {
    if provider == "supabase" { cli.runner.environment["SUPABASE_SERVICE_ROLE_KEY"] = cli.emulator.serviceRoleKey }
    cli.runner.environment["GOLDEN_PW"] = Self.password
    cli.runner.environment["WRONG_PW"] = "not-the-password-1"
    let work = cli.runner.home
    var transcript = ""
    func step(_ args: String...) async throws {
      let outcome = try await cli.runner.run(args, timeout: 120)
      transcript += "$ authsh \(args.joined(separator: " "))\n" + outcome.stdout
      if !outcome.stderr.isEmpty { transcript += "[stderr]\n" + outcome.stderr }
      transcript += "[exit \(outcome.status)]\n\n"
    }
    try await step("--json", "signup", "ada@example.com", "--name", "Ada", "--password-env", "GOLDEN_PW")
    try await step("--json", "signup", "ada@example.com", "--name", "Ada", "--password-env", "GOLDEN_PW")
    try await step("--json", "user", "confirm", "ada@example.com")
    // The account's id, which every later step names (a new address keeps it).
    let shown = try JSON.parse(
      bytes: Array(try await cli.runner.run(["--json", "user", "show", "ada@example.com"]).stdout.utf8))
    let id = try #require(shown["users"]?[0]?["user"]?["id"]?.string, "\(shown)")
    try await step("--json", "login", "ada@example.com", "--password-env", "WRONG_PW")
    try await step("--json", "login", "ada@example.com", "--password-env", "GOLDEN_PW")
    try await step("--json", "whoami")
    try await step("--json", "status")
    try await step("--json", "refresh")
    try await step("--json", "mfa", "list")
    try await step("--json", "mfa", "enroll", "--self-verify")
    try await step("--json", "mfa", "remove", "no-such-factor")
    try await step("--json", "reset", "ada@example.com")
    try await step("--json", "inbox", "ada@example.com")
    try await step("--json", "inbox", "nobody@example.com")
    let mail = try JSON.parse(
      bytes: Array(try await cli.runner.run(["--json", "--show-tokens", "inbox", "ada@example.com"]).stdout.utf8))
    let link = mail["inbox"]?["link"]?.string ?? "no-link-in-the-inbox"
    try await step("--json", "reset", "confirm", link, "--password-env", "GOLDEN_PW")
    try await step("--json", "logout")
    try await step("--json", "whoami")
    try await step("--json", "user", "update", "ada@example.com", "--name", "Ada L", "--yes")
    try await step("--json", "user", "set-email", "ada@example.com", "ada2@example.com")
    try await step("--json", "user", "mfa", "reset", "ada2@example.com", "--yes")
    try await step("--json", "user", "resend", "ada2@example.com", "--yes")
    try await step("--json", "user", "link", "confirm", "ada2@example.com", "--yes")
    try await step("--json", "user", "set-password", "ada2@example.com", "--yes", "--password-env", "GOLDEN_PW")
    try await step("--json", "user", "history", "ada2@example.com")
    try await step("--json", "user", "link", "invite", "new@example.com", "--yes")
    try await step("user", "export", "--output", work + "/export.jsonl")
    try await step("--json", "user", "import", work + "/export.jsonl", "--dry-run")
    try await step("--json", "user", "delete", "ada2@example.com", "--yes")
    try await step("--json", "user", "import", work + "/export.jsonl", "--yes")
    try await step("--json", "version")

    #expect(!transcript.contains(Self.password), "the password leaked into the output [\(provider)]")
    var normalized = SupportGoldenTests.normalize(transcript, ids: [id: "ada"])
    normalized = normalized.replacingOccurrences(of: work, with: "<home>")
    for (pattern, replacement) in [
      ("\"(expires_at|exp|iat|auth_time|expires_in|updated_at_unix)\": \\d+", "\"$1\": <n>"),
      ("expires in \\d+[hms ]*\\d*[ms]*", "expires in <duration>"),
      ("\"(session_id|sid|jti|user_id|sub|localId|uid)\": \"[^\"]+\"", "\"$1\": \"<id>\""),
      // A factor's id (a UUID; 28 letters and digits on Firebase) and its name's random suffix.
      ("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<uuid>"), ("\\b[A-Za-z0-9]{28}\\b", "<id28>"),
      ("TOTP <time> [0-9a-f]{4}", "TOTP <time> <suffix>"),
      // The session file is named after the backend's address.
      ("127\\.0\\.0\\.1-\\d+-[0-9a-f]{8}", "127.0.0.1-<port>-<hash>"),
    ] {
      normalized = normalized.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
    }
    if let diff = Snapshot.check(normalized, named: "json-\(provider)") { Issue.record(Comment(rawValue: diff)) }
  }

  /// Every command `authsh help` lists that takes `--json` has a `--json` step in one of the
  /// transcripts, so a new command cannot go without its golden.
  @Test func everyCommandThatTakesJSONHasAGolden() throws {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    var steps = ""
    for name in ["json-supabase", "json-firebase", "support-supabase", "support-firebase"] {
      steps += (try? String(contentsOf: directory.appendingPathComponent(name + ".txt"), encoding: .utf8)) ?? ""
    }
    let jsonSteps = steps.split(separator: "\n").filter { $0.hasPrefix("$ authsh ") && $0.contains("--json") }
    // Commands that print text only (`run` has reports of its own; `user export`'s records are its
    // JSON) or need a keyring.
    let textOnly: Set<String> = [
      "run", "emulator", "emulator faults clear", "version", "completion", "help", "user export", "secret set",
      "secret list",
      "secret delete", "secret migrate",
    ]
    for command in try Self.listedCommands() where !textOnly.contains(command) {
      let words = command.split(separator: " ").map(String.init)
      let found = jsonSteps.contains { line in
        let given = line.dropFirst(2).split(separator: " ").map(String.init).filter { !$0.hasPrefix("-") }
        return given.dropFirst().starts(with: words)
      }
      #expect(found, "`\(command) --json` has no golden: add a step to JSONGoldenTests or SupportGoldenTests")
    }
  }

  /// The command words `authsh help` lists (`user show`, `mfa enroll`, …).
  static func listedCommands() throws -> [String] {
    let help = try BinaryRunner().runBlocking(["help"]).stdout
    return help.split(separator: "\n").compactMap { line -> String? in
      guard line.hasPrefix("  "), !line.hasPrefix("   "), !line.hasPrefix("  authsh"), !line.hasPrefix("  --") else {
        return nil
      }
      let words = line.dropFirst(2).split(separator: " ").prefix { word in
        word.allSatisfy { $0.isLowercase || $0 == "-" }
      }
      return words.isEmpty ? nil : words.joined(separator: " ")
    }
  }
}
