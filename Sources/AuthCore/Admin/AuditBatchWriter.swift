import Essentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Many appends in a row: a batch's outcome lines, handed in as each request ends.
package protocol AuditBatchWriter: Sendable {
  /// Appends whole lines or none, as `AuditLog.appendAll` does.
  func appendAll(_ entries: [AuditEntry]) throws
  /// Writes what is still waiting (best effort) and lets the log go.
  func close()
}

/// The writer of a log without one of its own: each call is the log's `appendAll`.
struct PassThroughAuditWriter: AuditBatchWriter {
  let log: any AuditLog
  func appendAll(_ entries: [AuditEntry]) throws { try log.appendAll(entries) }
  func close() {}
}

/// `FileAuditLog`'s batch writer. The file is opened and checked once for the whole batch, not once
/// per line. Lines handed in while another caller is writing are queued, and that caller writes them
/// next, as a database commits a group: parallel requests never wait on the file lock, and none of
/// them is held back for a timer. Each write holds the `flock` and keeps lines whole, as
/// `appendAll` does.
final class FileAuditWriter: AuditBatchWriter {
  private let log: FileAuditLog
  private let fd: Int32
  private struct State {
    var queued: [UInt8] = []
    var writing = false
    var closed = false
    /// Where this writer's last write ended: when the file still ends there, it ends with a newline.
    var end: off_t = -1
  }
  private let state = Guarded(State())

  init(log: FileAuditLog) throws {
    self.log = log
    fd = try log.openForAppend()
  }

  func appendAll(_ entries: [AuditEntry]) throws {
    guard !entries.isEmpty else { return }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(entries.count * 200)
    // The lines of a batch share their time, profile, backend and command: written once.
    var head: (entry: AuditEntry, bytes: [UInt8])?
    for entry in entries {
      if let head, entry.sharesHead(with: head.entry) {
        bytes += head.bytes
      } else {
        var written: [UInt8] = []
        entry.writeHead(to: &written)
        head = (entry, written)
        bytes += written
      }
      entry.writeTail(to: &bytes)
    }
    let writes = state.update { state -> Bool in
      state.queued += bytes
      guard !state.writing, !state.closed else { return false }
      state.writing = true
      return true
    }
    guard writes else { return }
    try drain()
  }

  /// Writes the queue until it is empty; the caller holds `writing`.
  private func drain() throws {
    while true {
      let (next, end) = state.update { state -> ([UInt8]?, off_t) in
        guard !state.queued.isEmpty else {
          state.writing = false
          return (nil, state.end)
        }
        defer { state.queued = [] }
        return (state.queued, state.end)
      }
      guard let next else { return }
      do {
        let written = try write(next, after: end)
        state.update { $0.end = written }
      } catch {
        state.update { $0.writing = false }
        throw error
      }
    }
  }

  /// One locked append; returns where the file now ends.
  private func write(_ lines: [UInt8], after ownEnd: off_t) throws -> off_t {
    try log.lock(fd, LOCK_EX)
    defer { flock(fd, LOCK_UN) }
    let start = lseek(fd, 0, SEEK_END)
    var bytes = lines
    // A line cut short by a process killed mid-write (no repair ran) ends here: the next line
    // starts on its own, and `audit` names the fragment as unreadable.
    var last: UInt8 = 0x0A
    if start > 0, start != ownEnd, pread(fd, &last, 1, start - 1) == 1, last != 0x0A { bytes.insert(0x0A, at: 0) }
    let (offset, failure) = Descriptor.writeAll(fd, bytes)
    if let failure {
      // Whole lines or nothing: cut back what part of this write went in.
      if offset > 0, start >= 0 { _ = ftruncate(fd, start) }
      throw log.failed("write to", errno: failure)
    }
    return start + off_t(bytes.count)
  }

  func close() {
    let (flush, first) = state.update { state -> (Bool, Bool) in
      let first = !state.closed
      state.closed = true
      guard first, !state.writing, !state.queued.isEmpty else { return (false, first) }
      state.writing = true
      return (true, first)
    }
    if flush { try? drain() }
    if first { Descriptor.release(fd) }
  }
}
