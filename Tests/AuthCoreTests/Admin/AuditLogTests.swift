import AuthCore
import Foundation
import Testing

/// `audit.jsonl`: created 0600, one line per entry, refused when others can read it.
@Suite struct AuditLogTests {
  func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "authsh-audit-\(UUID().uuidString)"
    return path
  }

  func entry(_ time: String, _ command: String = "user disable") -> AuditEntry {
    AuditEntry(
      time: time, profile: "prod", backend: "supabase https://x.supabase.co:443/auth/v1", command: command,
      targetId: "u1", targetEmail: "ada@example.com", outcome: "ok")
  }

  @Test func entriesAreAppendedAsPrivateJSONLines() throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let log = FileAuditLog(path: directory + "/state/audit.jsonl")
    try log.append(entry("2026-11-23T10:00:00Z"))
    try log.append(entry("2026-11-23T11:00:00Z", "user delete"))
    var info = stat()
    #expect(stat(log.path, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o600)
    #expect(stat(directory + "/state", &info) == 0)
    #expect(info.st_mode & 0o777 == 0o700)
    let text = try String(contentsOfFile: log.path, encoding: .utf8)
    #expect(text.split(separator: "\n").count == 2)
    #expect(text.hasPrefix("{\"time\":\"2026-11-23T10:00:00Z\""))
    #expect(try log.entries(since: nil).map(\.command) == ["user disable", "user delete"])
    let since = UnixTime.parseISO("2026-11-23T10:30:00Z")
    #expect(try log.entries(since: since).map(\.command) == ["user delete"])
  }

  @Test func aLogOthersCanReadIsRefused() throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let log = FileAuditLog(path: directory + "/audit.jsonl")
    try log.append(entry("2026-11-23T10:00:00Z"))
    chmod(log.path, 0o644)
    #expect(throws: AuthError.self) { try log.append(entry("2026-11-23T10:00:01Z")) }
    #expect(throws: AuthError.self) { try log.entries(since: nil) }
  }

  @Test func aBatchIsAppendedAfterTheLinesAlreadyThereInOrder() throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let log = FileAuditLog(path: directory + "/audit.jsonl")
    try log.append(entry("2026-11-23T09:00:00Z", "user import"))
    var batch = (0..<1000).map { number in
      var line = entry("2026-11-23T10:00:00Z", "user import")
      line.targetEmail = "user\(number)@example.com"
      return line
    }
    batch[7].targetEmail = "quote\"and\\slash\u{7}\n@example.com"
    try log.appendAll(batch)
    try log.appendAll([])
    let read = try log.read(since: nil)
    #expect(read.unreadableLines.isEmpty)
    #expect(read.entries.count == 1001)
    #expect(read.entries.dropFirst().map(\.targetEmail) == batch.map(\.targetEmail))
    #expect(try String(contentsOfFile: log.path, encoding: .utf8).split(separator: "\n").count == 1001)
  }

  @Test func aMissingLogHasNoEntries() throws {
    #expect(try FileAuditLog(path: temporaryDirectory() + "/audit.jsonl").entries(since: nil).isEmpty)
  }
}
