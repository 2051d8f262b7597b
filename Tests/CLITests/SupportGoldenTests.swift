import AuthEmulator
import AuthTestSupport
import Foundation
import JSONKit
import Testing

/// Every support command through the built binary against an in-process emulator over a real
/// socket, human and `--json`, on both providers: one transcript per provider
/// (`Snapshots/support-<provider>.txt`; `AUTHSH_RECORD=1` re-records). Ids, times, tokens and
/// durations are replaced by placeholders; the service key and the password must not appear.
@Suite(.serialized) struct SupportGoldenTests {
  static let password = "Golden-support-pw-1"
  static let hostileName = "\u{1B}]0;pwned\u{07}\u{1B}[2JEve\u{202E}"

  @Test(arguments: ["supabase", "firebase"])
  func everySupportCommandHumanAndJSON(_ provider: String) async throws {
    try await withStarted(CLIEmulator(provider: provider)) { cli in
      if provider == "supabase" { cli.runner.environment["SUPABASE_SERVICE_ROLE_KEY"] = cli.emulator.serviceRoleKey }
      cli.runner.environment["SUPPORT_PW"] = Self.password
      var transcript = ""
      func step(_ args: String..., sortRows: Bool = false) async throws {
        var outcome = try await cli.runner.run(args, timeout: 120)
        if sortRows {
          // Firebase lists in id order, and ids are random: the rows between the header and the count, sorted.
          var lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
          if lines.count > 3 { lines[1..<(lines.count - 2)].sort() }
          outcome.stdout = lines.joined(separator: "\n")
        }
        transcript += "$ authsh \(args.map { $0.debugDescription.dropFirst().dropLast() }.joined(separator: " "))\n"
        if !outcome.stdout.isEmpty { transcript += outcome.stdout }
        if !outcome.stderr.isEmpty { transcript += "[stderr]\n" + outcome.stderr }
        transcript += "[exit \(outcome.status)]\n\n"
      }
      try await step("user", "create", "ada@example.com", "--name", "Ada", "--password-env", "SUPPORT_PW")
      try await step("--json", "user", "create", "bob@example.com", "--confirmed", "--password-env", "SUPPORT_PW")
      try await step(
        "user", "create", "eve@example.com", "--confirmed", "--name", Self.hostileName, "--password-env", "SUPPORT_PW")
      let ids = try await accountIds(cli, ["ada@example.com", "bob@example.com", "eve@example.com"])
      try await step("user", "show", "ada@example.com", "bob@example.com", "nobody@example.com")
      try await step("user", "show", "--json", "ada@example.com", "nobody@example.com")
      try await step("user", "show", "--jsonl", "--jobs", "1", "ada@example.com", "nobody@example.com", ids[1])
      try await step("user", "show", "eve@example.com")
      try await step("user", "list", "--limit", "5", sortRows: true)
      try await step("user", "list", "--filter", "ada")
      try await step("user", "list", "--filter", "bob", "--json")
      try await step("diagnose", "ada@example.com")
      try await step("diagnose", "nobody@example.com", "--json")
      try await step("user", "link", "confirm", "ada@example.com")
      try await step("user", "link", "confirm", "ada@example.com", "--yes")
      try await step("user", "link", "recovery", "ada@example.com", "--yes", "--json")
      try await step("user", "resend", "ada@example.com")
      try await step("user", "confirm", "ada@example.com")
      try await step("user", "confirm", "ada@example.com", "--json")
      try await step("user", "disable", "bob@example.com")
      try await step("user", "disable", "bob@example.com", "--yes")
      try await step("diagnose", "bob@example.com")
      try await step("user", "enable", "bob@example.com", "--json")
      try await step("user", "disable", "bob@example.com", "--until", "24h", "--yes", "--json")
      try await step("user", "enable", "bob@example.com")
      try await step("user", "set-password", "bob@example.com", "--yes", "--password-env", "SUPPORT_PW")
      try await step("user", "signout", "bob@example.com", "--yes")
      try await step("user", "signout", "bob@example.com", "--yes", "--json")
      try await step("user", "delete", "bob@example.com", "--yes")
      try await step("user", "delete", "eve@example.com", "--yes", "--json")
      try await step("user", "show", "bob@example.com")
      try await step("login", "ada@example.com", "--password-env", "SUPPORT_PW")
      try await step("diagnose", "ada@example.com", "--json")
      try await step("audit")
      try await step("audit", "--since", "1h", "--json")

      for secret in [Self.password, cli.emulator.serviceRoleKey] {
        #expect(!transcript.contains(secret), "a secret leaked into the output [\(provider)]")
      }
      #expect(!transcript.contains("\u{1B}"), "a server value reached the terminal unescaped [\(provider)]")
      let names = ["ada", "bob", "eve"]
      let normalized = Self.normalize(transcript, ids: Dictionary(uniqueKeysWithValues: zip(ids, names)))
      if let diff = Snapshot.check(normalized, named: "support-\(provider)") { Issue.record(Comment(rawValue: diff)) }
    }
  }

  /// `authsh --emulator`: the embedded emulator's own admin credentials, no environment needed.
  @Test(arguments: ["supabase", "firebase"])
  func theEmbeddedEmulatorNeedsNoAdminEnvironment(_ provider: String) async throws {
    let runner = try BinaryRunner()
    let created = try await runner.run([
      "--emulator", "--provider", provider, "user", "create", "ada@example.com", "--confirmed",
    ])
    #expect(created.status == 0, "\(created.combined)")
    #expect(created.stdout.hasPrefix("Created ada@example.com ("))
    let missing = try await runner.run(["--emulator", "--provider", provider, "diagnose", "ada@example.com", "--json"])
    #expect(missing.status == 1, "no account: diagnose exits 1, like grep: \(missing.combined)")
    #expect(missing.stdout.contains("\"no_account\""), "a fresh emulator per process: \(missing.stdout)")
  }

  func accountIds(_ cli: CLIEmulator, _ emails: [String]) async throws -> [String] {
    let outcome = try await cli.runner.run(["user", "show", "--json"] + emails)
    let json = try JSON.parse(bytes: Array(outcome.stdout.utf8))
    let ids = (json["users"]?.array ?? []).compactMap { $0["user"]?["id"]?.string }
    try #require(ids.count == emails.count, "\(outcome.stdout)\(outcome.stderr)")
    return ids
  }

  /// Ids by name, and placeholders for what changes from run to run.
  static func normalize(_ text: String, ids: [String: String]) -> String {
    var result = text
    for (id, name) in ids { result = result.replacingOccurrences(of: id, with: "<id:\(name)>") }
    let rules: [(String, String)] = [
      ("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})", "<time>"),
      ("\"elapsed_ms\": \\d+", "\"elapsed_ms\": <ms>"),
      ("(token|oobCode|code|token_hash)=[^&\"\\s]+", "$1=<token>"),
      ("\"code\": \"(\\d+|[A-Za-z0-9_-]{20,})\"", "\"code\": \"<code>\""),
      ("one-time code: \\S+", "one-time code: <code>"),
      ("token expires in [0-9hms ]+", "token expires in <duration>"),
      (
        " \\d+ s ago; the backend sends the next (\\w+) mail after \\d+ s more",
        " <n> s ago; the backend sends the next $1 mail after <n> s more"
      ),
      ("127\\.0\\.0\\.1:\\d+", "127.0.0.1:<port>"),
    ]
    for (pattern, replacement) in rules {
      result = result.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
    }
    // The audit log's operator is this machine's user and host: a placeholder, its column one width.
    let who = NSRegularExpression.escapedPattern(for: operatorName)
    for (pattern, replacement) in [
      ("\"operator\": \"\(who)\"", "\"operator\": \"<operator>\""), ("\(who) +", "<operator>  "),
      ("OPERATOR +BACKEND", "OPERATOR    BACKEND"),
    ] {
      result = result.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
    }
    return result
  }

  /// `user@host` as authsh writes it in the audit log.
  static var operatorName: String {
    var user = ""
    if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name {
      user = String(
        decoding: Array(UnsafeBufferPointer(start: name, count: strlen(name))).map { UInt8(bitPattern: $0) },
        as: UTF8.self)
    }
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return user }
    let host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return host.isEmpty ? user : user + "@" + host
  }
}
