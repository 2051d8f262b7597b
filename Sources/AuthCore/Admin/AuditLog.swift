import Foundation
import JSONKit

/// Where mutating admin commands are recorded (`audit.jsonl`). A protocol so tests and the
/// in-memory emulator shell can use their own.
public protocol AuditLog: Sendable {
  func append(_ entry: AuditEntry) throws
  /// Entries in file order; those older than `since` (Unix seconds) left out.
  func entries(since: Int?) throws -> [AuditEntry]
}

/// `$XDG_STATE_HOME/authsh/audit.jsonl`: one JSON object per line, created 0600 in a 0700
/// directory, appended with `O_APPEND` (one `write` per line, so concurrent authsh processes do not
/// interleave within a line). Refuses a file others can read, as session files are refused.
public struct FileAuditLog: AuditLog {
  public let path: String

  public init(path: String) { self.path = path }
  public init(paths: Paths) { self.init(path: paths.stateDirectory + "/audit.jsonl") }

  public func append(_ entry: AuditEntry) throws {
    try makeDirectory((path as NSString).deletingLastPathComponent)
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw failure("open") }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failure("check") }
    guard info.st_mode & 0o077 == 0 else { throw openToOthers(info.st_mode) }
    let bytes = Array(entry.json.compactText.utf8) + [0x0A]
    let written = bytes.withUnsafeBytes { buffer -> Int in
      guard let base = buffer.baseAddress else { return -1 }
      return write(fd, base, buffer.count)
    }
    guard written == bytes.count else { throw failure("write") }
  }

  public func entries(since: Int?) throws -> [AuditEntry] {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT { return [] }
      throw failure("read")
    }
    guard info.st_mode & 0o077 == 0 else { throw openToOthers(info.st_mode) }
    guard let data = FileManager.default.contents(atPath: path) else { throw failure("read") }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
      guard let json = try? JSON.parse(String(line)), let entry = AuditEntry(json: json) else { return nil }
      if let since, let time = UnixTime.parseISO(entry.time), time < since { return nil }
      return entry
    }
  }

  private func makeDirectory(_ directory: String) throws {
    var current = directory.hasPrefix("/") ? "" : "."
    for part in directory.split(separator: "/") {
      current += "/" + part
      guard mkdir(current, 0o700) == 0 || errno == EEXIST else { throw failure("create \(current) for") }
    }
  }

  private func failure(_ action: String) -> AuthError {
    AuthError(.configError, message: "Could not \(action) the audit log \(path): \(String(cString: strerror(errno))).")
  }

  private func openToOthers(_ mode: mode_t) -> AuthError {
    AuthError(
      .configError, message: "The audit log \(path) can be read by other users (mode \(String(mode & 0o777, radix: 8))).",
      hint: "Run: chmod 600 \(path)")
  }
}

/// An audit log kept in memory (tests; `--emulator` shells may use the file one as well).
public final class MemoryAuditLog: AuditLog, @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [AuditEntry] = []
  public init() {}
  public func append(_ entry: AuditEntry) throws { lock.withLock { stored.append(entry) } }
  public func entries(since: Int?) throws -> [AuditEntry] {
    lock.withLock {
      stored.filter { entry in
        guard let since, let time = UnixTime.parseISO(entry.time) else { return true }
        return time >= since
      }
    }
  }
}
