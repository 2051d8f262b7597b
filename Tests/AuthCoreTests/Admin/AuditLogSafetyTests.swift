import AuthCore
import Essentials
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 20 items 4 and 5: the audit log is never written through a link, is whole lines or
/// nothing on a full disk, says why it failed, and `read` names the lines it cannot read.
@Suite struct AuditLogSafetyTests {
  let directory = NSTemporaryDirectory() + "authsh-audit-safety-\(UUID().uuidString)"

  func entry(_ n: Int) -> AuditEntry {
    AuditEntry(
      time: "2026-11-23T10:00:00Z", profile: "prod", backend: "supabase https://x.supabase.co:443/auth/v1",
      command: "user disable", targetId: "id-\(n)", targetEmail: "user\(n)@example.com", outcome: "ok")
  }

  @Test func aLinkedLogIsRefusedAndItsTargetStaysUnchanged() throws {
    let state = directory + "/state/authsh"
    try FileManager.default.createDirectory(
      atPath: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let victim = directory + "/victim.txt"
    try "keep me\n".write(toFile: victim, atomically: true, encoding: .utf8)
    chmod(victim, 0o600)
    #expect(symlink(victim, state + "/audit.jsonl") == 0)
    let log = FileAuditLog(path: state + "/audit.jsonl", stateDirectory: state)
    let error = try #require(throws: AuthError.self) { try log.checkWritable() }
    #expect(error.code == .auditUnavailable)
    #expect(error.message == "Refusing to use the audit log \(state)/audit.jsonl: it is a symbolic link.")
    #expect(throws: AuthError.self) { try log.append(entry(1)) }
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n")
  }

  @Test func aLogOthersCanReadIsUnavailableBeforeAnythingIsWritten() throws {
    let log = FileAuditLog(path: directory + "/audit.jsonl")
    try log.append(entry(1))
    chmod(log.path, 0o644)
    let error = try #require(throws: AuthError.self) { try log.checkWritable() }
    #expect(error.code == .auditUnavailable)
    #expect(error.hint == "Run: chmod 600 \(log.path)")
  }

  @Test func unreadableLinesAreNumbered() throws {
    let log = FileAuditLog(path: directory + "/audit.jsonl")
    try log.append(entry(1))
    let handle = try #require(FileHandle(forWritingAtPath: log.path))
    handle.seekToEndOfFile()
    handle.write(Data("{\"time\":\"2026-11-23T10:00:00Z\",\"comm".utf8))
    handle.write(Data("\nnot json\n".utf8))
    handle.closeFile()
    try log.append(entry(2))
    let read = try log.read(since: nil)
    #expect(read.entries.map(\.targetId) == ["id-1", "id-2"])
    #expect(read.unreadableLines == [2, 3])
  }

  /// Another process holding the log's lock (appending, or cutting back a short write) is waited
  /// for: the end this append starts from is the end once it is alone.
  @Test func anAppendWaitsForTheLockOfAnotherWriter() throws {
    let log = FileAuditLog(path: directory + "/audit.jsonl")
    try log.append(entry(1))
    let other = open(log.path, O_RDWR | O_CLOEXEC)
    try #require(other >= 0)
    #expect(flock(other, LOCK_EX) == 0)
    // The waiting append on a thread of its own, not the test pool's (others share that pool).
    let finished = DispatchSemaphore(value: 0)
    let entry2 = entry(2)
    #expect(
      startThread {
        try? log.append(entry2)
        finished.signal()
      })
    #expect(finished.wait(timeout: .now() + 0.3) == .timedOut, "waiting for the lock")
    #expect(try String(contentsOfFile: log.path, encoding: .utf8).contains("id-2") == false)
    #expect(flock(other, LOCK_UN) == 0)
    close(other)
    #expect(finished.wait(timeout: .now() + 10) == .success)
    #expect(try log.read(since: nil).entries.map(\.targetId) == ["id-1", "id-2"])
  }

  /// A line cut short by a writer killed mid-write (no repair ran) is not joined by the next one.
  @Test func aFragmentAtTheEndStaysOnItsOwnLine() throws {
    let log = FileAuditLog(path: directory + "/audit.jsonl")
    try log.append(entry(1))
    let handle = try #require(FileHandle(forWritingAtPath: log.path))
    handle.seekToEndOfFile()
    handle.write(Data("{\"time\":\"2026-11-23T10:00:00Z\",\"comm".utf8))
    handle.closeFile()
    try log.append(entry(2))
    let read = try log.read(since: nil)
    #expect(read.entries.map(\.targetId) == ["id-1", "id-2"])
    #expect(read.unreadableLines == [2])
  }

  @Test(.enabled(if: geteuid() == 0, "mounting a small tmpfs needs root (CI runs as root)"))
  func aFullDiskLeavesOnlyWholeLinesAndSaysSo() throws {
    let mountPoint = directory + "/tmpfs"
    try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
    #expect(run("/bin/mount", "-t", "tmpfs", "-o", "size=16k,mode=0700", "tmpfs", mountPoint) == 0)
    defer { _ = run("/bin/umount", mountPoint) }
    let log = FileAuditLog(path: mountPoint + "/audit.jsonl")
    var acknowledged = 0
    var failure: AuthError?
    for n in 1...1_000 {
      do {
        try log.append(entry(n))
        acknowledged += 1
      } catch let error as AuthError {
        failure = error
        break
      }
    }
    let error = try #require(failure, "16 KiB fills up")
    #expect(error.code == .auditUnavailable)
    #expect(error.message.hasSuffix(": No space left on device."), "the real errno, not a stale one")
    let read = try log.read(since: nil)
    #expect(read.unreadableLines.isEmpty, "no partial line left behind")
    #expect(read.entries.count == acknowledged, "every acknowledged line is there")
    let text = try String(contentsOfFile: log.path, encoding: .utf8)
    #expect(text.hasSuffix("\n"))
  }

  func run(_ arguments: String...) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    guard (try? process.run()) != nil else { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
  }
}
