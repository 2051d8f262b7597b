import AuthTestSupport
import Foundation
import JSONKit
import Testing

/// Support is told the truth: an account deleted with authsh on one backend (staging) is not
/// reported by `diagnose` on another (production), `audit` shows the backend in use, and a line of
/// an older authsh that names no backend is never taken as any account's fate.
@Suite(.serialized) struct AuditBackendTests {
  /// Two emulators (the same provider, other ports): one HOME, so one audit log. Both are stopped
  /// (awaited) when `body` ends.
  static func withPair(
    _ provider: String, _ body: (_ staging: CLIEmulator, _ production: BinaryRunner) async throws -> Void
  ) async throws {
    try await withStarted(SupportOutputTests.emulator(provider)) { staging in
      try await withStarted(SupportOutputTests.emulator(provider)) { other in
        var production = staging.runner
        for key in ["SUPABASE_URL", "SUPABASE_SERVICE_ROLE_KEY", "FIREBASE_AUTH_EMULATOR_HOST"] {
          if let value = other.runner.environment[key] { production.environment[key] = value }
        }
        try await body(staging, production)
      }
    }
  }

  static func findings(_ outcome: BinaryRunner.Outcome) throws -> [String] {
    (try JSON.parse(outcome.stdout)["diagnosis"]?["findings"]?.array ?? []).compactMap { $0["code"]?.string }
  }

  @Test(arguments: ["supabase", "firebase"])
  func aDeletionOnOneBackendIsNotReportedOnAnother(_ provider: String) async throws {
    try await Self.withPair(provider) { staging, production in
      let created = try await staging.authsh(
        "user", "create", "gone@example.com", "--confirmed", "--password-env", "AUTHSH_TEST_PW")
      #expect(created.status == 0, "\(created.combined)")
      let deleted = try await staging.authsh("user", "delete", "gone@example.com", "--yes")
      #expect(deleted.status == 0, "\(deleted.combined)")

      let onStaging = try await staging.authsh("diagnose", "gone@example.com", "--json")
      #expect(try Self.findings(onStaging).contains("account_deleted"), "\(onStaging.combined)")
      let onProduction = try await production.run(["diagnose", "gone@example.com", "--json"])
      #expect(onProduction.status == 1)
      #expect(try !Self.findings(onProduction).contains("account_deleted"), "\(onProduction.combined)")
      let human = try await production.run(["diagnose", "gone@example.com"])
      #expect(!human.stdout.contains("deleted"), "\(human.stdout)")

      let audit = try await production.run(["audit"])
      #expect(audit.stdout.contains("No account changes recorded."), "\(audit.stdout)")
      #expect(audit.stdout.contains("lines about other backends are not shown"), "\(audit.stdout)")
      let all = try await production.run(["audit", "--all-backends"])
      #expect(all.stdout.contains("gone@example.com"), "\(all.stdout)")
      let own = try await staging.authsh("audit", "gone@example.com")
      #expect(own.stdout.contains("user delete") && !own.stdout.contains("other backends"), "\(own.stdout)")
    }
  }

  /// A line of an older authsh (no `backend`) recording a deletion: not the account's fate on any
  /// backend, and `diagnose` says why it does not count it.
  @Test func aLineThatNamesNoBackendIsNotAttributed() async throws {
    try await withStarted(SupportOutputTests.emulator("supabase")) { cli in
      let made = try await cli.authsh(
        "user", "create", "first@example.com", "--confirmed", "--password-env", "AUTHSH_TEST_PW")
      #expect(made.status == 0, "\(made.combined)")
      let log = cli.runner.home + "/state/authsh/audit.jsonl"
      let old =
        #"{"time":"2025-01-02T03:04:05Z","profile":"default","command":"user delete","target_email":"old@example.com","outcome":"ok","operator":"ada@laptop"}"#
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
      handle.seekToEndOfFile()
      handle.write(Data((old + "\n").utf8))
      handle.closeFile()

      let diagnosis = try await cli.authsh("diagnose", "old@example.com", "--json")
      #expect(try !Self.findings(diagnosis).contains("account_deleted"), "\(diagnosis.combined)")
      let notes = try JSON.parse(diagnosis.stdout)["notes"]?.array?.compactMap(\.string) ?? []
      #expect(notes.contains { $0.contains("written by an older authsh, which names no backend") }, "\(notes)")
      let audit = try await cli.authsh("audit", "old@example.com")
      #expect(
        audit.stdout.contains("1 line about other backends is not shown (1 of them written by an older authsh"),
        "\(audit.stdout)")
    }
  }
}
