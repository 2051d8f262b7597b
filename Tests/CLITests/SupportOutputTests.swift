import AuthEmulator
import AuthTestSupport
import Foundation
import JSONKit
import Testing

/// Output a pipeline can trust: `user show --json` has one shape whatever the count, `ok` agrees
/// with the exit status, and a command line prints the same JSON one-shot, piped and in a file.
@Suite(.serialized) struct SupportOutputTests {
  /// An emulator with `count` accounts `found<N>@example.com` on `provider`, and the admin key.
  static func emulator(_ provider: String, accounts count: Int = 0) async throws -> CLIEmulator {
    let cli = try await CLIEmulator(provider: provider)
    if provider == "supabase" { cli.runner.environment["SUPABASE_SERVICE_ROLE_KEY"] = cli.emulator.serviceRoleKey }
    if count > 0 {
      let lines = (0..<count).map { #"{"backend":"\#(provider)","email":"found\#($0)@example.com"}"# }
      _ = try cli.emulator.seed(EmulatorSeed.parse(lines.joined(separator: "\n"), file: "test"))
    }
    return cli
  }

  static func json(_ text: String) throws -> JSON { try JSON.parse(bytes: Array(text.utf8)) }

  /// The JSON without what differs between two runs of the same command (timing).
  static func comparable(_ text: String) throws -> JSON {
    guard case .object(var object) = try json(text) else { return .null }
    object["elapsed_ms"] = nil
    return .object(object)
  }

  @Test(arguments: ["supabase", "firebase"])
  func userShowJSONHasOneShapeWhateverTheCount(_ provider: String) async throws {
    try await withStarted(Self.emulator(provider, accounts: 200)) { cli in
      let found = (0..<200).map { "found\($0)@example.com" }
      let missing = (0..<200).map { "missing\($0)@example.com" }
      let cases: [[String]] = [
        [], [found[0]], [missing[0]], [found[0], found[1]], [found[0], missing[0]], [missing[0], missing[1]],
        found, Array(found.prefix(199)) + [missing[0]], missing,
      ]
      for addresses in cases {
        let file = cli.runner.home + "/ticket.txt"
        try (addresses.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let outcome = try await cli.runner.run(["user", "show", "--from", file, "--json"], timeout: 120)
        let label =
          "\(provider): \(addresses.count) addresses, \(addresses.filter { $0.hasPrefix("found") }.count) found"
        let json = try Self.json(outcome.stdout)
        let users = try #require(json["users"]?.array, "\(label): no users[] in \(outcome.combined.prefix(400))")
        #expect(users.count == addresses.count, "\(label)")
        for (entry, address) in zip(users, addresses) {
          #expect(entry["query"]?.string == address, "\(label)")
          #expect(entry["ok"]?.bool == address.hasPrefix("found"), "\(label): \(address)")
          #expect((entry["user"]?["email"]?.string == address) == address.hasPrefix("found"), "\(label): \(address)")
        }
        let allFound = !addresses.isEmpty && addresses.allSatisfy { $0.hasPrefix("found") }
        // `user` too for exactly one account found (kept for scripts written against it).
        #expect((json["user"] != nil) == (addresses.count == 1 && allFound), "\(label)")
        let status: Int32 = addresses.isEmpty ? 64 : allFound ? 0 : 1
        #expect(outcome.status == status, "\(label): \(outcome.stderr.prefix(300))")
        #expect(json["ok"]?.bool == (outcome.status == 0), "\(label): ok must agree with exit \(outcome.status)")
        if !allFound, !addresses.isEmpty { #expect(json["error"]?["code"]?.string == "user_not_found", "\(label)") }
      }
    }
  }

  @Test(arguments: ["supabase", "firebase"])
  func theSameLineGivesTheSameJSONOneShotPipedAndInAFile(_ provider: String) async throws {
    try await withStarted(Self.emulator(provider, accounts: 2)) { cli in
      let words = ["user", "show", "found0@example.com", "nobody@example.com", "--json"]
      let line = words.joined(separator: " ")
      let oneShot = try await cli.runner.run(words)
      let piped = try await cli.runner.run([], stdin: line + "\n")
      let pipedFlag = try await cli.runner.run(["--json"], stdin: words.dropLast().joined(separator: " ") + "\n")
      let file = cli.runner.home + "/ticket.auth"
      try (line + "\n").write(toFile: file, atomically: true, encoding: .utf8)
      let sourced = try await cli.runner.run([], stdin: "source \(file)\n")
      let reference = try Self.comparable(oneShot.stdout)
      #expect(reference["users"]?.array?.count == 2)
      for (name, outcome) in [("piped", piped), ("authsh --json <", pipedFlag), ("source FILE", sourced)] {
        #expect(
          try Self.comparable(outcome.stdout) == reference, "\(provider) \(name): \(outcome.combined.prefix(600))")
        #expect(outcome.status == oneShot.status, "\(provider) \(name)")
      }
      #expect(oneShot.status == 1)
    }
  }

  @Test func jsonAndShowTokensHoldInPipedInput() async throws {
    try await withStarted(Self.emulator("firebase")) { cli in
      let input = """
        signup ada@example.com --name Ada --password-env AUTHSH_TEST_PW
        whoami --json
        reset ada@example.com
        inbox ada@example.com --show-tokens

        """
      let outcome = try await cli.runner.run([], stdin: input)
      #expect(outcome.status == 0, "\(outcome.combined)")
      #expect(
        outcome.stdout.contains("\"command\" : \"whoami\"") || outcome.stdout.contains("\"command\": \"whoami\""),
        "\(outcome.stdout)")
      // The Firebase link's oobCode and apiKey are shown, as `inbox --show-tokens` does one-shot.
      let link = try #require(outcome.stdout.split(separator: "\n").first { $0.hasPrefix("link") })
      #expect(link.contains("oobCode=") && !link.contains("oobCode=***"), "\(link)")
      #expect(link.contains("apiKey=") && !link.contains("apiKey=***"), "\(link)")

      // Output flags before piped input hold for every line.
      let status = try await cli.runner.run(["--json"], stdin: "status\n")
      #expect(try Self.json(status.stdout)["status"]?["signed_in"]?.bool == true, "\(status.combined)")
      let whoami = try await cli.runner.run(["--json", "--show-tokens"], stdin: "whoami\n")
      let session = try Self.json(whoami.stdout)["session"]
      #expect(session?["access_token"]?.string?.count ?? 0 > 20, "\(whoami.combined)")
      #expect(try Self.json(whoami.stdout)["user"]?["email"]?.string == "ada@example.com")
    }
  }

  @Test func pipedInputStopsAtTheFirstFailureAndExitsAsOneShot() async throws {
    try await withStarted(Self.emulator("supabase", accounts: 1)) { cli in
      let missing = try await cli.runner.run([], stdin: "user show nobody@example.com\necho not-reached\n")
      #expect(missing.status == 1, "\(missing.combined)")
      #expect(!missing.stdout.contains("not-reached"))
      #expect(
        missing.stdout.contains("nobody@example.com: no such account") || missing.stderr.contains("no such account"))

      let delete = try await cli.runner.run([], stdin: "user delete found0@example.com\necho not-reached\n")
      let oneShot = try await cli.runner.run(["user", "delete", "found0@example.com"])
      #expect(oneShot.status == 64)
      #expect(delete.status == 64, "\(delete.combined)")
      #expect(!delete.stdout.contains("not-reached"))

      let help = try await cli.runner.run([], stdin: "login --help\necho after\n")
      #expect(help.status == 0, "\(help.combined)")
      #expect(help.stdout.contains("login") && help.stdout.contains("--password-env"), "\(help.stdout)")
      #expect(help.stdout.contains("after\n"))
    }
  }

  @Test(arguments: ["supabase", "firebase"])
  func diagnoseExitsLikeGrep(_ provider: String) async throws {
    try await withStarted(Self.emulator(provider)) { cli in
      _ = try await cli.runner.run([
        "user", "create", "ok@example.com", "--confirmed", "--password-env", "AUTHSH_TEST_PW",
      ])
      _ = try await cli.runner.run([
        "user", "create", "off@example.com", "--confirmed", "--password-env", "AUTHSH_TEST_PW",
      ])
      _ = try await cli.runner.run(["user", "disable", "off@example.com", "--yes"])
      for (address, status) in [("ok@example.com", Int32(0)), ("off@example.com", 1), ("nobody@example.com", 1)] {
        let human = try await cli.runner.run(["diagnose", address])
        #expect(human.status == status, "\(provider) \(address): \(human.combined)")
        let json = try await cli.runner.run(["diagnose", address, "--json"])
        #expect(json.status == status, "\(provider) \(address)")
        #expect(
          try Self.json(json.stdout)["ok"]?.bool == (status == 0),
          "\(provider) \(address): ok agrees with the exit status")
      }
    }
  }

  @Test func supabaseSignoutSaysNotSupportedBeforeAskingToConfirm() async throws {
    try await withStarted(Self.emulator("supabase", accounts: 1)) { cli in
      // Without --yes and without a terminal the confirmation would be a usage error (64): the
      // backend's answer comes first.
      let outcome = try await cli.runner.run(["user", "signout", "found0@example.com", "--json"])
      #expect(try Self.json(outcome.stdout)["error"]?["code"]?.string == "not_supported", "\(outcome.combined)")
      #expect(outcome.status == 1)
      try await withStarted(Self.emulator("firebase", accounts: 1)) { firebase in
        let soft = try await firebase.runner.run(["user", "delete", "found0@example.com", "--soft", "--json"])
        #expect(try Self.json(soft.stdout)["error"]?["code"]?.string == "not_supported", "\(soft.combined)")
        let timed = try await firebase.runner.run(["user", "disable", "found0@example.com", "--until", "7d", "--json"])
        #expect(try Self.json(timed.stdout)["error"]?["code"]?.string == "not_supported", "\(timed.combined)")
      }
    }
  }

  @Test(arguments: ["supabase", "firebase"])
  func pendingMailSecretsAreMaskedWithoutShowTokens(_ provider: String) async throws {
    try await withStarted(Self.emulator(provider)) { cli in
      _ = try await cli.runner.run([
        "user", "create", "ada@example.com", "--confirmed", "--password-env", "AUTHSH_TEST_PW",
      ])
      let reset = try await cli.runner.run(["reset", "ada@example.com"])
      #expect(reset.status == 0, "\(reset.combined)")
      let mail = try await cli.runner.run(["inbox", "ada@example.com", "--show-tokens", "--json"])
      let code = try Self.json(mail.stdout)["inbox"]?["code"]?.string ?? ""
      let link = try Self.json(mail.stdout)["inbox"]?["link"]?.string ?? ""
      let secrets = ([code] + Self.queryValues(link, ["token", "token_hash", "oobCode", "code"])).filter {
        !$0.isEmpty && $0 != "***"
      }
      #expect(!secrets.isEmpty, "\(mail.combined)")

      let human = try await cli.runner.run(["user", "show", "ada@example.com"])
      let json = try await cli.runner.run(["user", "show", "ada@example.com", "--json"])
      let jsonl = try await cli.runner.run(["user", "show", "ada@example.com", "--jsonl"])
      #expect(human.stdout.contains("pending mail"), "\(human.stdout)")
      for secret in secrets {
        #expect(!human.stdout.contains(secret), "\(provider): the human output shows a mail secret")
        #expect(!json.stdout.contains(secret), "\(provider): --json shows a mail secret")
        #expect(!jsonl.stdout.contains(secret), "\(provider): --jsonl shows a mail secret")
      }
      let shown = try await cli.runner.run(["user", "show", "ada@example.com", "--json", "--show-tokens"])
      #expect(secrets.allSatisfy(shown.stdout.contains), "\(provider): --show-tokens shows them")
    }
  }

  static func queryValues(_ link: String, _ names: Set<String>) -> [String] {
    guard let query = link.split(separator: "?", maxSplits: 1).dropFirst().first else { return [] }
    return query.split(separator: "&").compactMap { pair in
      let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
      return parts.count == 2 && names.contains(parts[0]) ? parts[1] : nil
    }
  }
}

@Suite(.serialized) struct AuditWidthTests {
  @Test func aHugeRefusedArgumentNeitherFillsTheLogNorPadsEveryRow() async throws {
    try await withStarted(SupportOutputTests.emulator("supabase", accounts: 1)) { cli in
      // An address that long is refused before anything is sent or logged (no address has 255+
      // characters); so is text that is no Supabase id (a UUID) or phone number.
      let address = try await cli.runner.run([
        "user", "confirm", String(repeating: "e", count: 70_000) + "@example.com",
      ])
      #expect(address.status == 1 && address.stderr.contains("validation_failed"))
      let huge = String(repeating: "e", count: 70_000)
      let refused = try await cli.runner.run(["user", "confirm", huge])
      #expect(refused.status == 64 && refused.stderr.contains("is not an e-mail address"))
      #expect(refused.stderr.count < 2_000, "the refusal quotes the start of the text only")
      _ = try await cli.runner.run(["user", "confirm", "found0@example.com"])
      let log = try String(contentsOfFile: cli.runner.home + "/state/authsh/audit.jsonl", encoding: .utf8)
      #expect(log.split(separator: "\n").count == 2, "an attempt and an outcome: \(log.prefix(300))")
      #expect(log.count < 2_000, "nothing of a refused argument is logged")
      let audit = try await cli.runner.run(["audit"])
      #expect(audit.status == 0)
      let lines = audit.stdout.split(separator: "\n")
      #expect(lines.count == 3, "\(audit.stdout.prefix(300))")
      #expect(lines.allSatisfy { $0.count < 400 }, "one long entry pads no row: \(lines.map(\.count))")
      #expect(audit.stdout.contains("found0@example.com"))
    }
  }
}

@Suite(.serialized) struct UserShowStreamingTests {
  /// `yes ADDRESS | authsh user show --from - --jsonl | head -5`: the lines come as the lookups
  /// complete, and once `head` has gone the endless input is read no further.
  @Test func anEndlessInputStreamsAndStopsWhenTheReaderGoes() async throws {
    try await withStarted(SupportOutputTests.emulator("supabase", accounts: 1)) { cli in
      // `yes` never ends: the pipeline ends only if authsh stops reading once head has gone (else
      // the shell is killed at the runner's bound and exits by a signal, not 0). No clock is read.
      let outcome = try ProgramRunner.run(
        "/bin/sh",
        ["-c", "yes found0@example.com | \"$0\" user show --from - --jsonl | head -5", cli.runner.executable.path],
        environment: cli.runner.environment, timeout: 120)
      #expect(outcome.status == 0, "the pipeline ended by itself: \(outcome.stderr.prefix(300))")
      let lines = outcome.stdout.split(separator: "\n")
      #expect(lines.count == 5, "\(outcome.stdout.prefix(500)) \(outcome.stderr.prefix(500))")
      #expect(lines.allSatisfy { $0.contains("\"query\":\"found0@example.com\"") && $0.contains("\"ok\":true") })
    }
  }

  @Test func aLineNoAddressCanBeEndsTheInputAsAUsageError() async throws {
    try await withStarted(SupportOutputTests.emulator("supabase", accounts: 1)) { cli in
      let outcome = try await cli.runner.run(["user", "show", "--from", "/dev/zero", "--json"], timeout: 60)
      #expect(outcome.status == 64, "\(outcome.combined.prefix(500))")
      #expect(
        try SupportOutputTests.json(outcome.stdout)["error"]?["message"]?.string
          == "Line 1 of /dev/zero is longer than 1024 bytes: it is not an address or id.")
      let mixed = try await cli.runner.run(
        ["user", "show", "--from", "-", "--jsonl"],
        stdin: "found0@example.com\n" + String(repeating: "x", count: 5000) + "\n")
      #expect(mixed.status == 64)
      #expect(mixed.stdout.contains("\"query\":\"found0@example.com\""), "the lookups before it are printed")
      #expect(mixed.stderr.contains("Line 2 of standard input is longer than 1024 bytes"), "\(mixed.stderr)")
    }
  }
}
