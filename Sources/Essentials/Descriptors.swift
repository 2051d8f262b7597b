/// A failed system call: its errno, described by the C library.
/// `SafePath`'s refusals carry their own words (`reason`): which hop, and why.
package struct SystemError: Error, Equatable, CustomStringConvertible {
  package let code: Int32
  package let reason: String?
  package init(_ code: Int32 = errno, reason: String? = nil) {
    self.code = code
    self.reason = reason
  }
  package var description: String {
    if let reason { return reason }
    // What open(2) with O_NOFOLLOW says of a link; strerror's "too many levels of symbolic links"
    // would send the reader looking for a loop.
    return code == ELOOP
      ? "it is a symbolic link in a directory others may write to, which authsh does not follow; give the file's own path"
      : String(cString: strerror(code))
  }
}

/// A file over the size cap of its reader (`whole`), or with a line over its line cap.
package struct InputTooLarge: Error, Equatable, CustomStringConvertible {
  package let line: Int
  package let limit: Int
  package let whole: Bool
  package var description: String {
    whole
      ? "it is larger than \(Self.size(limit))" : "line \(line) is longer than \(Self.size(limit)) (is it a text file?)"
  }
  static func size(_ bytes: Int) -> String {
    bytes >= 1 << 20 ? "\(bytes >> 20) MB" : bytes >= 1024 ? "\(bytes >> 10) KB" : "\(bytes) bytes"
  }
}

/// Reading and writing file descriptors with POSIX calls (interrupted calls are retried), in place
/// of Foundation's `FileHandle`.
package enum Descriptor {
  /// Opens `path` to read (close-on-exec).
  package static func openForReading(_ path: String) throws(SystemError) -> Int32 {
    while true {
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      if fd >= 0 { return fd }
      if errno != EINTR { throw SystemError() }
    }
  }

  /// Creates `path`, or empties it, to write (close-on-exec), through `SafePath`: every hop is
  /// checked and links are followed by hand. A new file gets `mode`, and an existing regular file
  /// is set to it.
  package static func create(_ path: String, mode: mode_t) throws(SystemError) -> Int32 {
    let fd = try SafePath.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: mode)
    var info = stat()
    if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o777 != mode { _ = fchmod(fd, mode) }
    return fd
  }

  /// Creates `path`, which must not exist yet (`EEXIST`), to write: `O_EXCL | O_NOFOLLOW`, so
  /// neither a file nor a link already there is ever written through; mode `mode`.
  package static func createNew(_ path: String, mode: mode_t) throws(SystemError) -> Int32 {
    let place = try SafePath.parent(of: path)
    defer { place.close() }
    var fd: Int32
    repeat {
      fd = openat(place.directory, place.name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
    } while fd < 0 && errno == EINTR
    guard fd >= 0 else { throw SystemError() }
    _ = fchmod(fd, mode)  // exactly `mode`, whatever the umask took away
    return fd
  }

  /// Opens an existing `path` to add to its end (close-on-exec), through `SafePath`.
  package static func openForAppending(_ path: String) throws(SystemError) -> Int32 {
    try SafePath.open(path, flags: O_WRONLY | O_APPEND)
  }

  /// Closes `fd` (for types with a `close` of their own, where the C call is out of reach).
  package static func release(_ fd: Int32) { _ = close(fd) }

  /// Up to `count` bytes; empty at the end of the input.
  package static func readChunk(_ fd: Int32, upTo count: Int) throws(SystemError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    while true {
      let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, count) }
      if got >= 0 {
        bytes.removeSubrange(got...)
        return bytes
      }
      if errno != EINTR { throw SystemError() }
    }
  }

  /// Everything up to the end of the input.
  package static func readAll(_ fd: Int32) throws(SystemError) -> [UInt8] {
    var all: [UInt8] = []
    while true {
      let chunk = try readChunk(fd, upTo: 64 * 1024)
      if chunk.isEmpty { return all }
      all += chunk
    }
  }

  /// A whole file (`path`), or standard input for `-`, as bytes.
  package static func readFile(_ path: String) throws(SystemError) -> [UInt8] {
    if path == "-" { return try readAll(0) }
    let fd = try openForReading(path)
    defer { _ = close(fd) }
    return try readAll(fd)
  }

  /// A whole file (or standard input for `-`) of at most `limit` bytes whose lines are at most
  /// `lineLimit` bytes: a file with no end (`/dev/zero`) is refused at its first long line, not
  /// read until memory runs out.
  package static func readFile(_ path: String, limit: Int, lineLimit: Int) throws -> [UInt8] {
    let fd = path == "-" ? 0 : try openForReading(path)
    defer { if fd != 0 { _ = close(fd) } }
    return try readAll(fd, limit: limit, lineLimit: lineLimit)
  }

  /// Everything up to the end of `fd`, within the caps of `readFile(_:limit:lineLimit:)`.
  package static func readAll(_ fd: Int32, limit: Int, lineLimit: Int) throws -> [UInt8] {
    var all: [UInt8] = []
    var lineStart = 0
    var lines = 1
    while true {
      let chunk = try readChunk(fd, upTo: 64 * 1024)
      if chunk.isEmpty { return all }
      let offset = all.count
      all += chunk
      for index in offset..<all.count where all[index] == 0x0A {
        lines += 1
        lineStart = index + 1
      }
      if all.count - lineStart > lineLimit { throw InputTooLarge(line: lines, limit: lineLimit, whole: false) }
      if all.count > limit { throw InputTooLarge(line: lines, limit: limit, whole: true) }
    }
  }

  /// Writes every byte, retrying interrupted and partial writes, and waiting for room on a
  /// non-blocking descriptor. Returns how many bytes went in and, when not all did, the reason
  /// (`ENOSPC` for a write(2) that returned 0: a device with no room sets no errno, and a loop
  /// that counted it as progress would spin). Shared by the standard streams, the audit log, the
  /// session files, the history file and batch reports. `write` is write(2) unless a test gives one.
  package static func writeAll(
    _ fd: Int32, _ bytes: [UInt8],
    write: (Int32, UnsafeRawPointer, Int) -> Int = { systemWrite($0, $1, $2) }
  ) -> (written: Int, failure: Int32?) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        let n = write(fd, base + offset, buffer.count - offset)
        if n < 0 {
          let error = errno
          if error == EINTR { continue }
          if error == EAGAIN || error == EWOULDBLOCK {
            var request = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&request, 1, -1)
            continue
          }
          return (offset, error)
        }
        guard n > 0 else { return (offset, ENOSPC) }
        offset += n
      }
      return (offset, nil)
    }
  }
}

@usableFromInline func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    return Glibc.write(fd, bytes, count)
  #else
    return Darwin.write(fd, bytes, count)
  #endif
}

/// Runs `body` on a new detached thread of its own (in place of Foundation's `Thread`); false
/// when the system has no thread to give (resource limits), and `body` then never runs.
@discardableResult
package func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
  final class Box: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  let context = Unmanaged.passRetained(Box(body)).toOpaque()
  var thread = pthread_t()
  let started = pthread_create(
    &thread, nil,
    { raw in
      guard let raw else { return nil }
      Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
      return nil
    }, context)
  guard started == 0 else {
    Unmanaged<Box>.fromOpaque(context).release()
    return false
  }
  pthread_detach(thread)
  return true
}

/// What is at `path` (links followed): nil when nothing is, else whether it is a directory.
package func isDirectory(_ path: String) -> Bool? {
  var info = stat()
  guard stat(path, &info) == 0 else { return nil }
  return info.st_mode & S_IFMT == S_IFDIR
}
