import AuthEmulator
import AuthTestSupport
import Foundation
import HTTPServerKit
import JSONKit
import Testing

/// `authsh user export` through the built binary: Firebase against recorded production-shaped
/// answers (a fixture server standing in as the emulator host: batchGet pages with hashes and the
/// v2 project config's hashConfig), each format a golden file (`Snapshots/user-export.*`;
/// `AUTHSH_RECORD=1` re-records); Supabase through the in-process emulator's admin API.
@Suite(.serialized) struct UserExportTests {
  static let project = "demo-authsh"

  /// `Tests/ProvidersTests/Fixtures/firebase/NAME`: the same recorded answers the provider tests replay.
  static func fixture(_ name: String, file: String = #filePath) -> String {
    let tests = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
    let url = tests.appendingPathComponent("ProvidersTests/Fixtures/firebase/" + name)
    return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }

  final class FirebaseRig: TestService, @unchecked Sendable {
    let server = FixtureServer()
    var runner: BinaryRunner

    init(config: String? = "admin_config_hash.json") async throws {
      try await server.start()
      runner = try BinaryRunner()
      runner.environment["FIREBASE_AUTH_EMULATOR_HOST"] = "127.0.0.1:\(server.port)"
      runner.environment["FIREBASE_PROJECT_ID"] = UserExportTests.project
      runner.environment["FIREBASE_API_KEY"] = "api-key-for-cli-tests"
      let base = "/identitytoolkit.googleapis.com/v1/projects/\(UserExportTests.project)/accounts:batchGet"
      server.on("GET", base) { request in
        let page: String
        switch request.query("nextPageToken") {
        case nil: page = "admin_export_page1.json"
        case "AAAAAAAAABQwQnE3eDJZdEc1aFprUDFzV21SOWNWbkwzZUo0": page = "admin_export_page2.json"
        default: page = "admin_export_page3.json"
        }
        return ServerResponse(
          status: 200, headers: [("Content-Type", "application/json")], body: Array(UserExportTests.fixture(page).utf8))
      }
      if let config {
        server.on(
          "GET", "/identitytoolkit.googleapis.com/v2/projects/\(UserExportTests.project)/config", status: 200,
          json: UserExportTests.fixture(config))
      }
    }

    func export(_ args: String...) async throws -> BinaryRunner.Outcome {
      try await runner.run(["user", "export"] + args, timeout: 60)
    }

    func stop() async { await server.stop() }
  }

  @Test(arguments: [("jsonl", "jsonl"), ("csv", "csv"), ("firebase", "json")])
  func firebaseFormatsMatchTheirGoldenFiles(_ format: String, _ ext: String) async throws {
    try await withStarted(FirebaseRig()) { rig in
      let outcome = try await rig.export("--format", format)
      #expect(outcome.status == 0, "\(outcome.stderr)")
      if let diff = Snapshot.check(outcome.stdout, named: "user-export-firebase", ext: ext) {
        Issue.record(Comment(rawValue: diff))
      }
      #expect(outcome.stderr.contains("The export holds password hashes"))
      #expect(outcome.stderr.hasSuffix("Exported 3 accounts (2 with a password hash).\n"))
      if format == "firebase" { #expect(try JSON.parse(outcome.stdout)["users"]?.array?.count == 3) }
    }
  }

  @Test func filterAndAHashConfigFile() async throws {
    // The project config cannot be read here (404): the file gives the parameters.
    try await withStarted(FirebaseRig(config: nil)) { rig in
      let missing = try await rig.export("--filter", "ADA")
      #expect(missing.status == 0)
      let record = try JSON.parse(missing.stdout)
      #expect(record["email"] == "ada@example.com" && record["password_hash"] == .null)
      #expect(record["password_note"]?.string?.contains("--hash-config FILE") == true)
      #expect(missing.stderr.contains("the records have password_hash null"))

      let file = rig.runner.home + "/hash-config.json"
      try
        #"{"algorithm":"SCRYPT","signerKey":"AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAhIiMkJSYnKCkqKywtLi8wMTIzNDU2Nzg5Ojs8PT4/QA==","saltSeparator":"Bw==","rounds":8,"memoryCost":14}"#
        .write(toFile: file, atomically: true, encoding: .utf8)
      let given = try await rig.export("--filter", "example.org", "--hash-config", file)
      #expect(given.status == 0)
      let lines = given.stdout.split(separator: "\n")
      #expect(lines.count == 1)
      let linus = try JSON.parse(String(lines[0]))
      #expect(linus["email"] == "linus@example.org")
      #expect(linus["password_hash"]?.string?.hasPrefix("$fbscrypt$v=1,n=14,r=8,p=1,ss=Bw==,sk=AQIDBAUG") == true)

      let bad = try await rig.export("--hash-config", rig.runner.home + "/nowhere.json")
      #expect(bad.status == 64 && bad.stderr.contains("Cannot read"))
    }
  }

  @Test func supabaseAdminAPIHasNoHashesAndSaysSo() async throws {
    try await withStarted(CLIEmulator(provider: "supabase")) { cli in
      cli.runner.environment["SUPABASE_SERVICE_ROLE_KEY"] = cli.emulator.serviceRoleKey
      for email in ["ada@example.com", "bob@example.com", "cat@other.example"] {
        let created = try await cli.authsh("user", "create", email, "--confirmed", "--password-env", "AUTHSH_TEST_PW")
        #expect(created.status == 0, "\(created.stderr)")
      }
      let outcome = try await cli.authsh("user", "export", "--filter", "example.com")
      #expect(outcome.status == 0, "\(outcome.stderr)")
      let records = try outcome.stdout.split(separator: "\n").map { try JSON.parse(String($0)) }
      #expect(records.compactMap { $0["email"]?.string }.sorted() == ["ada@example.com", "bob@example.com"])
      for record in records {
        #expect(record["source"] == "supabase" && record["password_hash"] == .null && record["email_verified"] == true)
        #expect(record["password_note"] == "Supabase's admin API does not return password hashes; pass --db URL")
        #expect(record["providers"] == ["email"])
        // The list has neither: unknown, not none.
        #expect(record["identities"] == .null && record["factors"] == .null)
      }
      #expect(outcome.stderr.contains("its list has no identities or second factors"))
      #expect(outcome.stderr.contains("Pass --db postgres://"))
      #expect(outcome.stderr.hasSuffix("Exported 2 accounts (2 whose password hash is missing (see password_note)).\n"))
      #expect(
        !outcome.combined.contains(CLIEmulator.password) && !outcome.combined.contains(cli.emulator.serviceRoleKey))

      let json = try await cli.authsh("user", "export", "--json")
      #expect(json.status == 64 && json.stdout.contains("--json does not apply"))
    }
  }

  static func mode(_ path: String) -> mode_t {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & 0o777 : 0
  }

  /// `--output FILE`: a new file of mode 0600 (whatever the umask), nothing on standard output;
  /// an existing file, or a link, is refused without --force and left as it was; --force replaces
  /// the name (a link itself, never the file it points to).
  @Test func anExportToAFileIs0600AndNeverOverwritesWithoutForce() async throws {
    try await withStarted(FirebaseRig()) { rig in
      let path = rig.runner.home + "/users.jsonl"
      let written = try await rig.runner.run(["user", "export", "--output", path], timeout: 60)
      #expect(written.status == 0, "\(written.stderr)")
      #expect(written.stdout.isEmpty)
      #expect(
        written.stderr.hasSuffix("Exported 3 accounts (2 with a password hash). Wrote \(path) (mode 0600).\n"),
        "\(written.stderr)")
      #expect(Self.mode(path) == 0o600)
      let first = try String(contentsOfFile: path, encoding: .utf8)
      if let diff = Snapshot.check(first, named: "user-export-firebase", ext: "jsonl") {
        Issue.record(Comment(rawValue: diff))
      }

      try "older".write(toFile: path, atomically: true, encoding: .utf8)
      let refused = try await rig.export("--output", path)
      #expect(refused.status == 64, "\(refused.stderr)")
      #expect(
        refused.stderr.contains("--output \(path) exists already: add --force to replace it"), "\(refused.stderr)")
      #expect(try String(contentsOfFile: path, encoding: .utf8) == "older")

      let forced = try await rig.export("--output", path, "--force")
      #expect(forced.status == 0, "\(forced.stderr)")
      #expect(try String(contentsOfFile: path, encoding: .utf8) == first)
      #expect(Self.mode(path) == 0o600)

      let target = rig.runner.home + "/someone-elses.txt"
      try "theirs".write(toFile: target, atomically: true, encoding: .utf8)
      let link = rig.runner.home + "/planted.jsonl"
      #expect(symlink(target, link) == 0)
      let linked = try await rig.export("--output", link)
      #expect(linked.status == 64 && linked.stderr.contains("is a symbolic link"), "\(linked.stderr)")
      let replaced = try await rig.export("--output", link, "--force")
      #expect(replaced.status == 0, "\(replaced.stderr)")
      #expect(try String(contentsOfFile: target, encoding: .utf8) == "theirs")
      #expect(Self.mode(link) == 0o600)
      #expect(try String(contentsOfFile: link, encoding: .utf8) == first)
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: rig.runner.home).allSatisfy { !$0.contains(".authsh-") })

      // --force renames over the name: never over a device (as root, /dev/full would be replaced).
      let device = try await rig.export("--output", "/dev/full", "--force")
      #expect(device.status == 64 && device.stderr.contains("is not a regular file"), "\(device.stderr)")
      var info = stat()
      #expect(lstat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)

      let stray = try await rig.export("--force")
      #expect(stray.status == 64 && stray.stderr.contains("without --output there is none"))
    }
  }
}
