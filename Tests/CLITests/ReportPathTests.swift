import AuthTestSupport
import Foundation
import Testing

/// `--report-*` to something that is not a plain file is written through, never replaced: a FIFO
/// (and so `/dev/stdout`, a terminal, a device) stays what it was, as does a symbolic link.
@Suite struct ReportPathTests {
  static let script = "test \"one\"\necho hi\n"

  func scratch() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-report-\(UUID().uuidString)").path
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
    let outcome = try await BinaryRunner().run(["run", "--emulator", directory + "/a.auth", "--report-tap", fifo], timeout: 60)
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
    let outcome = try await BinaryRunner().run(["run", "--emulator", directory + "/a.auth", "--report-json", "/dev/full"], timeout: 60)
    #expect(outcome.status == 74, "\(outcome.stderr)")
    #expect(outcome.stdout.contains("1 passed, 0 failed"))
    #expect(outcome.stderr.contains("cannot write report '/dev/full'"))
  }

  @Test func aSymbolicLinkStaysALink() async throws {
    let directory = try scratch()
    let target = directory + "/run-1.json"
    try "old".write(toFile: target, atomically: true, encoding: .utf8)
    let link = directory + "/latest.json"
    #expect(symlink(target, link) == 0)
    let outcome = try await BinaryRunner().run(["run", "--emulator", directory + "/a.auth", "--report-json", link], timeout: 60)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(Self.kind(link) == S_IFLNK)
    let written = try String(contentsOfFile: target, encoding: .utf8)
    #expect(written.hasPrefix("{") && written.contains("\"version\": 1"))
  }
}
