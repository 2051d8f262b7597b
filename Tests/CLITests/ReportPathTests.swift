import AuthTestSupport
import Foundation
import Testing

/// `--report-*` to something that is not a plain file is written through, never replaced: a FIFO
/// (and so `/dev/stdout`, a terminal, a device) stays what it was; a symbolic link someone else could
/// have planted is refused.
@Suite struct ReportPathTests {
  static let script = "test \"one\"\necho hi\n"

  func scratch() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-report-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try Self.script.write(toFile: directory + "/a.auth", atomically: true, encoding: .utf8)
    return directory
  }

  static func kind(_ path: String) -> mode_t {
    var info = stat()
    guard lstat(path, &info) == 0 else { return 0 }
    return info.st_mode & S_IFMT
  }

  @Test func aFIFOIsWrittenThroughNotReplaced() async throws {
    let directory = try scratch()
    let fifo = directory + "/report.tap"
    #expect(mkfifo(fifo, 0o600) == 0)
    // Opened without blocking, so a run that replaced the FIFO fails the test instead of hanging it.
    let fd = open(fifo, O_RDONLY | O_NONBLOCK)
    #expect(fd >= 0)
    defer { close(fd) }
    let outcome = try await BinaryRunner().run(
      ["run", "--emulator", directory + "/a.auth", "--report-tap", fifo], timeout: 60)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(Self.kind(fifo) == S_IFIFO, "still a FIFO")
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = read(fd, &buffer, buffer.count)
      guard count > 0 else { break }
      received += buffer[0..<count]
    }
    #expect(String(decoding: received, as: UTF8.self).hasPrefix("TAP version 13"))
  }

  /// Every test passed but the report a CI job reads is missing: exit 74, not a test failure's 1.
  @Test func aReportThatCannotBeWrittenIsAnIOError() async throws {
    let directory = try scratch()
    let outcome = try await BinaryRunner().run(
      ["run", "--emulator", directory + "/a.auth", "--report-json", "/dev/full"], timeout: 60)
    #expect(outcome.status == 74, "\(outcome.stderr)")
    #expect(outcome.stdout.contains("1 passed, 0 failed"))
    #expect(outcome.stderr.contains("cannot write report '/dev/full'"))
  }

  /// A link in a directory others may write to (a shared folder, not sticky) could have been
  /// planted there to aim the report at another file: it is refused before anything runs, and the
  /// file it points to is untouched.
  @Test func aLinkInASharedDirectoryIsRefusedAndItsTargetUntouched() async throws {
    let directory = try scratch()
    #expect(chmod(directory, 0o777) == 0)
    let target = directory + "/someone-elses.json"
    try "old".write(toFile: target, atomically: true, encoding: .utf8)
    let link = directory + "/latest.json"
    #expect(symlink(target, link) == 0)
    let outcome = try await BinaryRunner().run(
      ["run", "--emulator", directory + "/a.auth", "--report-json", link], timeout: 60)
    #expect(outcome.status == 64, "\(outcome.stderr)")
    #expect(
      outcome.stderr.contains("latest.json is a symbolic link in a directory group or others may write to (mode 0777)"),
      "\(outcome.stderr)")
    #expect(!outcome.stdout.contains("passed"), "nothing ran")
    #expect(Self.kind(link) == S_IFLNK)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "old")
  }

  /// A link of yours in your own directory (`latest.json` → `run-1.json`) is written through and
  /// stays a link.
  @Test func aLinkInYourOwnDirectoryIsWrittenThrough() async throws {
    let directory = try scratch()
    let target = directory + "/run-1.json"
    try "old".write(toFile: target, atomically: true, encoding: .utf8)
    let link = directory + "/latest.json"
    #expect(symlink(target, link) == 0)
    let outcome = try await BinaryRunner().run(
      ["run", "--emulator", directory + "/a.auth", "--report-json", link], timeout: 60)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(Self.kind(link) == S_IFLNK)
    let written = try String(contentsOfFile: target, encoding: .utf8)
    #expect(written.hasPrefix("{") && written.contains("\"version\": 1"))
  }

  /// A report is created 0600 (it may name accounts), and one written over an old 0644 file is a
  /// new 0600 file too.
  @Test func reportsAreCreated0600() async throws {
    let directory = try scratch()
    let old = directory + "/old.tap"
    try "old".write(toFile: old, atomically: true, encoding: .utf8)
    #expect(chmod(old, 0o644) == 0)
    let fresh = directory + "/new.json"
    let outcome = try await BinaryRunner().run(
      ["run", "--emulator", directory + "/a.auth", "--report-json", fresh, "--report-tap", old], timeout: 60)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    for path in [fresh, old] {
      var info = stat()
      #expect(lstat(path, &info) == 0)
      #expect(info.st_mode & 0o777 == 0o600, "\(path)")
    }
    #expect(try String(contentsOfFile: old, encoding: .utf8).hasPrefix("TAP version 13"))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["a.auth", "new.json", "old.tap"])
  }

  /// A bulk change's `--report` too: the planted link is refused before any account is changed.
  @Test func aBulkReportThroughAPlantedLinkIsRefused() async throws {
    let runner = try BinaryRunner()
    let directory = try scratch()
    #expect(chmod(directory, 0o777) == 0)
    let target = directory + "/someone-elses.txt"
    try "old".write(toFile: target, atomically: true, encoding: .utf8)
    let link = directory + "/report.jsonl"
    #expect(symlink(target, link) == 0)
    try "ada@example.com\n".write(toFile: directory + "/list", atomically: true, encoding: .utf8)
    let outcome = try await runner.run([
      "--emulator", "--seed", runner.packageRoot + "/examples/accounts.jsonl", "--provider", "supabase", "user",
      "confirm", "--from",
      directory + "/list", "--report", link, "--yes",
    ])
    #expect(outcome.status == 64, "\(outcome.combined)")
    #expect(
      outcome.stderr.contains(
        "Cannot write the report \(link): \(link) is a symbolic link in a directory group or others may write to"))
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "old")
  }
}
