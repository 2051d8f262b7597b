import Essentials
import JSONKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where mutating admin commands are recorded (`audit.jsonl`). A protocol so tests and the
/// in-memory emulator shell can use their own.
package protocol AuditLog: Sendable {
  /// Throws `audit_unavailable` when a line could not be appended now (called before a change
  /// is sent, so a change is never made unrecorded).
  func checkWritable() throws
  func append(_ entry: AuditEntry) throws
  /// Appends many lines at once (a batch's outcomes), all of them or none.
  func appendAll(_ entries: [AuditEntry]) throws
  /// For a batch's many appends (its outcomes as they come): one writer for the whole batch.
  func batchWriter() throws -> any AuditBatchWriter
  /// Entries in file order; those older than `since` (Unix seconds) left out.
  func entries(since: Int?) throws -> [AuditEntry]
  /// The entries and the numbers (from 1) of the lines that are not an entry.
  func read(since: Int?) throws -> AuditRead
  /// Visits the lines newest first, each with its number (from 1) and its entry (nil: a line
  /// that is not one), until `visit` returns false: a lookup stops at the first match.
  func scanNewestFirst(_ visit: (AuditEntry?, Int) throws -> Bool) throws
}

/// What `audit` reads: the entries and the lines it could not read.
package struct AuditRead: Sendable, Equatable {
  package var entries: [AuditEntry]
  package var unreadableLines: [Int]
  package init(entries: [AuditEntry], unreadableLines: [Int] = []) {
    self.entries = entries
    self.unreadableLines = unreadableLines
  }
}

extension AuditLog {
  package func checkWritable() throws {}
  package func appendAll(_ entries: [AuditEntry]) throws {
    for entry in entries { try append(entry) }
  }
  package func read(since: Int?) throws -> AuditRead { AuditRead(entries: try entries(since: since)) }
  package func batchWriter() throws -> any AuditBatchWriter { PassThroughAuditWriter(log: self) }
  package func scanNewestFirst(_ visit: (AuditEntry?, Int) throws -> Bool) throws {
    let all = try entries(since: nil)
    for (index, entry) in all.enumerated().reversed() where try !visit(entry, index + 1) { return }
  }
}

/// `$XDG_STATE_HOME/authsh/audit.jsonl`: one JSON object per line, created 0600 in a 0700
/// directory, appended with `O_APPEND` whole lines or nothing: a short write (a full disk) is
/// truncated back, so no partial line is ever left for the next one to join. Appends and their
/// repair hold an exclusive `flock` (several authsh processes at once: the end a repair cuts back
/// to is still the end), and reads a shared one. Never followed through a symbolic link; refuses
/// a file others can read, as session files are refused.
package struct FileAuditLog: AuditLog {
  package let path: String
  /// `$XDG_STATE_HOME/authsh`, checked as ssh checks `~/.ssh` (nil: only created when missing).
  package let stateDirectory: String?
  /// The directory passed its checks once: an import appends a line per account, and the checks
  /// (three `stat`s and as many `geteuid`s) were half of each append's system calls.
  private let directoryChecked = Guarded(false)

  package init(path: String, stateDirectory: String? = nil) {
    self.path = path
    self.stateDirectory = stateDirectory
  }

  package init(paths: Paths) {
    self.init(path: paths.stateDirectory + "/audit.jsonl", stateDirectory: paths.stateDirectory)
  }

  package func checkWritable() throws {
    let fd = try openForAppend()
    close(fd)
  }

  package func append(_ entry: AuditEntry) throws { try appendAll([entry]) }

  /// One open and one write for the lines of a whole batch (an import's 10,000 outcomes).
  package func appendAll(_ entries: [AuditEntry]) throws {
    guard !entries.isEmpty else { return }
    let writer = try FileAuditWriter(log: self)
    defer { writer.close() }
    try writer.appendAll(entries)
  }

  /// The file opened and checked once for all of a batch's lines (`FileAuditWriter`).
  package func batchWriter() throws -> any AuditBatchWriter { try FileAuditWriter(log: self) }

  package func entries(since: Int?) throws -> [AuditEntry] { try read(since: since).entries }

  /// Streamed newest first (see `scanNewestFirst`): only the entries kept are held.
  package func read(since: Int?) throws -> AuditRead {
    var result = AuditRead(entries: [])
    try scanNewestFirst { entry, number in
      guard let entry else {
        result.unreadableLines.append(number)
        return true
      }
      if let since, let time = UnixTime.parseISO(entry.time), time < since { return true }
      result.entries.append(entry)
      return true
    }
    result.entries.reverse()
    result.unreadableLines.reverse()
    return result
  }

  /// The log opened for appending (created 0600), after the state directory's checks; readable too,
  /// to see whether the last line was left unfinished.
  func openForAppend() throws -> Int32 {
    do {
      if !directoryChecked.update({ $0 }) {
        if let stateDirectory {
          _ = try StateDirectory.check(stateDirectory, create: true)
        } else {
          try PrivateDirectory.create(parentDirectory(of: path))
        }
        directoryChecked.update { $0 = true }
      }
    } catch let error as AuthError {
      throw AuthError(
        .auditUnavailable, message: "Cannot use the audit log \(path): \(error.message)", hint: error.hint)
    }
    let fd: Int32
    do {
      fd = try SafePath.open(path, flags: O_RDWR | O_CREAT | O_APPEND | O_NONBLOCK, followLast: false)
    } catch {
      let code = error.code
      if let reason = error.reason {
        throw AuthError(
          .auditUnavailable, message: "Refusing to use the audit log \(path): \(reason).",
          hint: "Keep XDG_STATE_HOME in a directory of yours, reached through no one else's link.")
      }
      if code == ELOOP {
        throw AuthError(
          .auditUnavailable, message: "Refusing to use the audit log \(path): it is a symbolic link.",
          hint: "Move it away and let authsh create it: mv \(path) \(path).old")
      }
      throw failed("open", errno: code)
    }
    do {
      try checkFile(fd)
    } catch {
      close(fd)
      throw error
    }
    return fd
  }

  /// flock(2), waiting for other authsh processes (interrupted waits are retried).
  func lock(_ fd: Int32, _ operation: Int32) throws {
    while flock(fd, operation) != 0 {
      guard errno == EINTR else { throw failed("lock", errno: errno) }
    }
  }

  /// A regular file of yours that nobody else can read.
  func checkFile(_ fd: Int32) throws {
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failed("inspect", errno: errno) }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw AuthError(
        .auditUnavailable, message: "Refusing to use the audit log \(path): it is not a regular file.",
        hint: "Move it away and let authsh create it: mv \(path) \(path).old")
    }
    guard info.st_uid == geteuid() else {
      throw AuthError(
        .auditUnavailable,
        message: "Refusing to use the audit log \(path): it is owned by uid \(info.st_uid), not by you.",
        hint: "Move it away and let authsh create it: mv \(path) \(path).old")
    }
    guard info.st_mode & 0o077 == 0 else {
      let can = info.st_mode & 0o022 != 0 ? "write to" : "read"
      throw AuthError(
        .auditUnavailable,
        message:
          "Refusing to use the audit log \(path): other users can \(can) it (mode 0\(String(info.st_mode & 0o777, radix: 8))).",
        hint: "Run: chmod 600 \(path)")
    }
  }

  func failed(_ action: String, errno code: Int32) -> AuthError {
    AuthError(
      .auditUnavailable, message: "Could not \(action) the audit log \(path): \(String(cString: strerror(code))).")
  }
}

/// An audit log kept in memory (tests; `--emulator` shells may use the file one as well).
package final class MemoryAuditLog: AuditLog, Sendable {
  private let stored = Guarded<[AuditEntry]>([])
  package init() {}
  package func append(_ entry: AuditEntry) throws { stored.update { $0.append(entry) } }
  package func entries(since: Int?) throws -> [AuditEntry] {
    stored.update { stored in
      stored.filter { entry in
        guard let since, let time = UnixTime.parseISO(entry.time) else { return true }
        return time >= since
      }
    }
  }
}
