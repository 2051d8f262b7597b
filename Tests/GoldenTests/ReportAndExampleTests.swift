import AuthTestSupport
import Foundation
import Testing

/// End-to-end checks beyond the sidecars: reports from a real run validated by
/// `Scripts/reports/check_reports.py` (JUnit structure and counts, `junit.xsd` via xmllint when
/// installed, TAP 13, JSON; no secret, password or JWT in any output), and `examples/` passing on
/// both providers.
@Suite(.serialized) struct ReportAndExampleTests {
  static let passwords = [
    "golden-secret-pw-1", "not-the-password", "a-new-password-1", "correct-horse", "wrong-horse", "whatever-123",
  ]

  @Test func reportsOfARealRunValidateAndCarryNoSecrets() throws {
    try #require(FileManager.default.isExecutableFile(atPath: AuthshProcess.binary.path), "build authsh first")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-reports-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let scripts = GoldenCase.all().filter { $0.folder != "parse_error" }.map(\.relativePath)
    let path = { (name: String) in directory.appendingPathComponent(name).path }
    let outcome = try AuthshProcess.run(
      [
        "run", "--emulator", "--jobs", "2", "--report-junit", path("junit.xml"), "--report-tap", path("tap.txt"),
        "--report-json", path("report.json"),
      ] + scripts,
      in: GoldenCase.scriptsDirectory, environment: GoldenScriptTests.environment)
    #expect(outcome.status == 3, "backend_down makes the run exit 3\n\(outcome.stderr)")
    try outcome.stdout.write(toFile: path("stdout.txt"), atomically: true, encoding: .utf8)
    try outcome.stderr.write(toFile: path("stderr.txt"), atomically: true, encoding: .utf8)
    let checker = GoldenCase.scriptsDirectory.appendingPathComponent("reports/check_reports.py").path
    let arguments =
      [checker, path("junit.xml"), path("tap.txt"), path("report.json")]
      + Self.passwords.flatMap { ["--forbid", $0] } + ["--output", path("stdout.txt"), "--output", path("stderr.txt")]
    let check = try Self.python(arguments)
    #expect(check.status == 0, "\(check.output)")
    print(check.output)
  }

  /// Runs `arguments` from `Scripts/` with all three reports; returns the outcome and the reports.
  func runWithReports(_ arguments: [String], in directory: URL = GoldenCase.scriptsDirectory) throws
    -> (AuthshProcess.Outcome, junit: String, tap: String, json: String)
  {
    let reports = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-reports-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: reports) }
    let path = { (name: String) in reports.appendingPathComponent(name).path }
    let outcome = try AuthshProcess.run(
      [
        "run", "--emulator", "--report-junit", path("junit.xml"), "--report-tap", path("tap.txt"), "--report-json",
        path("report.json"),
      ]
        + arguments, in: directory)
    let read = { (name: String) in (try? String(contentsOfFile: path(name), encoding: .utf8)) ?? "" }
    return (outcome, read("junit.xml"), read("tap.txt"), read("report.json"))
  }

  /// A closed port under `expect ok`: exit 3 and "error" in every channel, never an assertion failure.
  @Test func anOutageIsAnErrorInEveryReport() throws {
    try #require(FileManager.default.isExecutableFile(atPath: AuthshProcess.binary.path), "build authsh first")
    let (outcome, junit, tap, json) = try runWithReports(["errored/expect_ok_backend_down.auth"])
    #expect(outcome.status == 3, "\(outcome.stdout)\(outcome.stderr)")
    #expect(outcome.stdout.contains(" error: network_unreachable\n"))
    #expect(outcome.stdout.hasSuffix("0 passed, 1 failed (1 error)\n"))
    #expect(junit.contains("<testsuites name=\"authsh\" tests=\"1\" failures=\"0\" errors=\"1\""))
    #expect(junit.contains("<error message=\"&apos;login&apos; failed: network_unreachable\" type=\"backend\">"))
    #expect(!junit.contains("<failure"))
    #expect(tap.contains("not ok 1 - errored/expect_ok_backend_down.auth: expect ok against a dead backend # error\n"))
    #expect(tap.contains("  severity: \"error\"\n"))
    #expect(json.contains("\"outcome\": \"error\""))
    #expect(json.contains("\"exit_code\": 3"))
  }

  /// A check error on a line with `--password "…"` (and one on a `secret` line): masked on the
  /// terminal and in every report.
  @Test func checkErrorsShowNoSecretAnywhere() throws {
    try #require(FileManager.default.isExecutableFile(atPath: AuthshProcess.binary.path), "build authsh first")
    let (outcome, junit, tap, json) = try runWithReports(["parse_error/password_in_check_error.auth"])
    #expect(outcome.status == 2)
    #expect(outcome.stderr.contains(" 3 | login a@example.com --password \"***\" --remembr\n"))
    #expect(outcome.stderr.contains(" 2 | secret uuid = \"***\"\n"))
    #expect(junit.contains("--password &quot;***&quot; --remembr"))
    for (name, text) in [
      ("stdout", outcome.stdout), ("stderr", outcome.stderr), ("junit", junit), ("tap", tap), ("json", json),
    ] {
      #expect(!text.contains("known-pw-123"), "\(name)")
      #expect(!text.contains("known-secret-77"), "\(name)")
    }
    #expect(!junit.isEmpty && !tap.isEmpty && !json.isEmpty)
  }

  /// `include` of a file that is not an `.auth` script (a temporary file with a known first line):
  /// the diagnostic names the line of the script, never the file's content.
  @Test func includingAFileThatIsNotAScriptShowsNoneOfIt() throws {
    try #require(FileManager.default.isExecutableFile(atPath: AuthshProcess.binary.path), "build authsh first")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-include-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let privateFile = directory.appendingPathComponent("private.txt")
    try "root:$6$first-line-known-to-the-test:19000::\nsecond-line-known\n".write(
      to: privateFile, atomically: true, encoding: .utf8)
    try "include private.txt\ninclude \(privateFile.path)\n".write(
      to: directory.appendingPathComponent("main.auth"), atomically: true, encoding: .utf8)
    let (outcome, junit, tap, json) = try runWithReports(["main.auth"], in: directory)
    #expect(outcome.status == 2)
    #expect(outcome.stderr.contains("error: include needs an .auth script"))
    for text in [outcome.stdout, outcome.stderr, junit, tap, json] {
      #expect(!text.contains("first-line-known-to-the-test"))
      #expect(!text.contains("second-line-known"))
    }
  }

  @Test(arguments: GoldenCase.providers, ["", "--like-production"])
  func examplesPassOnBothProviders(_ provider: String, _ mode: String) throws {
    try #require(FileManager.default.isExecutableFile(atPath: AuthshProcess.binary.path), "build authsh first")
    let examples = AuthshProcess.packageRoot.appendingPathComponent("examples")
    let files = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".auth") }
      .sorted()
    #expect(files.count >= 6)
    // The support desk's tickets are about the seeded accounts (a lost phone, a Google sign-up).
    let flags =
      ["--provider", provider, "run", "--emulator"] + (mode.isEmpty ? [] : [mode])
      + ["--seed", "accounts.jsonl", "--jobs", "2"]
    // Like production these are a project's smoke scripts with its own SMTP server: the built-in
    // mail service sends 2 mails an hour, to the organisation's team only.
    let config = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-examples-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: config) }
    try Data("[emulator]\nsmtp = \"custom\"\n".utf8).write(to: config.appendingPathComponent("config.toml"))
    let outcome = try AuthshProcess.run(flags + files, in: examples, environment: ["AUTHSH_CONFIG_DIR": config.path])
    #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
    #expect(outcome.stdout.hasSuffix(" passed, 0 failed\n"))
  }

  @Test("like production on the built-in mail service, a sign-up smoke script fails as it would on a hosted project")
  func builtInMailRefusesOutsiders() throws {
    let examples = AuthshProcess.packageRoot.appendingPathComponent("examples")
    let outcome = try AuthshProcess.run(
      ["--provider", "supabase", "run", "--emulator", "--like-production", "signup.auth"], in: examples)
    #expect(outcome.status == 1)
    #expect(outcome.stderr.contains("only mails members of its team"), "\(outcome.stderr)")
  }

  static func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let done = try ProgramRunner.run(
      "/usr/bin/env", ["python3"] + arguments, environment: ProcessInfo.processInfo.environment)
    return (done.status, done.stdout + done.stderr)
  }
}
