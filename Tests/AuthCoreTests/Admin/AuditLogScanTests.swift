import AuthCore
import Foundation
import Testing

/// Reading `audit.jsonl` is a bounded stream: newest first, stopping where the caller has what it
/// needs, with line numbers from the start and an over-long line reported, never held whole.
@Suite struct AuditLogScanTests {
  func entry(_ time: String, _ email: String) -> AuditEntry {
    AuditEntry(
      time: time, profile: "prod", backend: "supabase https://x.supabase.co:443/auth/v1", command: "user delete",
      targetId: nil, targetEmail: email, outcome: "ok")
  }

  @Test func newestFirstStopsAtTheFirstMatchAndNumbersLinesFromTheStart() throws {
    let directory = NSTemporaryDirectory() + "authsh-audit-scan-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let log = FileAuditLog(path: directory + "/audit.jsonl")
    // More than one 64 KiB chunk of lines, one unreadable line and one of 2 MiB in between.
    for index in 0..<2_000 { try log.append(entry("2026-11-23T10:00:00Z", "user\(index)@example.com")) }
    let handle = try #require(FileHandle(forWritingAtPath: log.path))
    handle.seekToEndOfFile()
    handle.write(Data("not json\n".utf8))
    handle.write(Data(String(repeating: "x", count: 2 << 20).utf8 + [0x0A]))
    handle.closeFile()
    try log.append(entry("2026-11-23T11:00:00Z", "last@example.com"))

    var visited: [(String?, Int)] = []
    try log.scanNewestFirst { found, number in
      visited.append((found?.targetEmail, number))
      return found?.targetEmail != "user1999@example.com"
    }
    #expect(visited.map(\.1) == [2_003, 2_002, 2_001, 2_000])
    #expect(visited.map(\.0) == ["last@example.com", nil, nil, "user1999@example.com"])

    let read = try log.read(since: nil)
    #expect(read.entries.count == 2_001)
    #expect(read.entries.first?.targetEmail == "user0@example.com")
    #expect(read.entries.last?.targetEmail == "last@example.com")
    #expect(read.unreadableLines == [2_001, 2_002])
  }

  @Test func anUnfinishedLastLineIsOneUnreadableLine() throws {
    let directory = NSTemporaryDirectory() + "authsh-audit-scan-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let log = FileAuditLog(path: directory + "/audit.jsonl")
    try log.append(entry("2026-11-23T10:00:00Z", "a@example.com"))
    let handle = try #require(FileHandle(forWritingAtPath: log.path))
    handle.seekToEndOfFile()
    handle.write(Data("{\"time\":".utf8))
    handle.closeFile()
    let read = try log.read(since: nil)
    #expect(read.entries.map(\.targetEmail) == ["a@example.com"])
    #expect(read.unreadableLines == [2])
  }
}
