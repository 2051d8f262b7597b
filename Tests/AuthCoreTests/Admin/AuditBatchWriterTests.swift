import AuthCore
import Essentials
import Foundation
import JSONKit
import Testing

/// A batch's writer: the file opened once, lines from many requests at once all whole and all there,
/// and each line the same text the entry's JSON has.
@Suite struct AuditBatchWriterTests {
  let directory = NSTemporaryDirectory() + "authsh-audit-writer-\(UUID().uuidString)"

  func entry(_ n: Int, email: String? = nil, note: String? = nil) -> AuditEntry {
    AuditEntry(
      time: "2026-11-29T10:00:00Z", profile: "prod", backend: "supabase http://127.0.0.1:1/auth/v1",
      command: "user import", targetId: n.isMultiple(of: 3) ? nil : "id-\(n)",
      targetEmail: email ?? "p\(n)@example.com",
      outcome: "ok", operatorName: n.isMultiple(of: 2) ? "ops" : nil, note: note)
  }

  @Test func aLineIsTheEntrysJSONText() {
    let entries = [
      entry(1), entry(2),
      entry(3, email: "quote\"back\\slash\u{7}\u{1b}[31m\n@é.example", note: "may have been applied"),
    ]
    for entry in entries {
      var line: [UInt8] = []
      entry.writeHead(to: &line)
      entry.writeTail(to: &line)
      #expect(String(decoding: line, as: UTF8.self) == entry.json.compactText + "\n")
      #expect(AuditEntry(json: try! JSON.parse(entry.json.compactText)) == entry)
    }
  }

  @Test func linesFromManyThreadsAtOnceAreAllThereAndWhole() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let log = FileAuditLog(path: directory + "/audit.jsonl")
    try log.append(entry(0))
    let writer = try log.batchWriter()
    DispatchQueue.concurrentPerform(iterations: 8) { lane in
      for n in 0..<250 { try? writer.appendAll([entry(1 + lane * 250 + n)]) }
    }
    writer.close()
    writer.close()
    let read = try log.read(since: nil)
    #expect(read.unreadableLines.isEmpty)
    #expect(read.entries.count == 2001)
    #expect(Set(read.entries.compactMap(\.targetEmail)).count == 2001)
  }

  /// The head a batch's lines share is written once, and a line with another head gets its own.
  @Test func aBatchWithMixedHeadsReadsBackEntryForEntry() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let log = FileAuditLog(path: directory + "/audit.jsonl")
    var entries = (0..<6).map { entry($0) }
    entries[2].command = "user delete"
    entries[3].time = "2026-11-29T10:00:01Z"
    entries[4].backend = "firebase http://127.0.0.1:1 project=p"
    let writer = try log.batchWriter()
    try writer.appendAll(entries)
    writer.close()
    #expect(try log.read(since: nil).entries == entries)
  }

  @Test func aFragmentLeftByAnotherProcessStaysOnItsOwnLine() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let log = FileAuditLog(path: directory + "/audit.jsonl")
    let writer = try log.batchWriter()
    try writer.appendAll([entry(1)])
    let handle = try #require(FileHandle(forWritingAtPath: log.path))
    handle.seekToEndOfFile()
    handle.write(Data("{\"time\":\"2026-11-29T10:00:00Z\",\"comm".utf8))
    handle.closeFile()
    try writer.appendAll([entry(2)])
    writer.close()
    let read = try log.read(since: nil)
    #expect(read.entries.map(\.targetEmail) == ["p1@example.com", "p2@example.com"])
    #expect(read.unreadableLines == [2])
  }

  @Test func aLogOthersCanReadIsRefusedWhenTheWriterOpens() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let log = FileAuditLog(path: directory + "/audit.jsonl")
    try log.append(entry(1))
    chmod(log.path, 0o644)
    #expect(throws: AuthError.self) { try log.batchWriter() }
  }
}
