/// A failed system call: its errno, described by the C library.
public struct SystemError: Error, Equatable, CustomStringConvertible {
  public let code: Int32
  public init(_ code: Int32 = errno) { self.code = code }
  public var description: String { String(cString: strerror(code)) }
}

/// Reading and writing file descriptors with POSIX calls (interrupted calls are retried), in place
/// of Foundation's `FileHandle`.
public enum Descriptor {
  /// Opens `path` to read (close-on-exec).
  public static func openForReading(_ path: String) throws(SystemError) -> Int32 {
    while true {
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      if fd >= 0 { return fd }
      if errno != EINTR { throw SystemError() }
    }
  }

  /// Up to `count` bytes; empty at the end of the input.
  public static func readChunk(_ fd: Int32, upTo count: Int) throws(SystemError) -> [UInt8] {
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
  public static func readAll(_ fd: Int32) throws(SystemError) -> [UInt8] {
    var all: [UInt8] = []
    while true {
      let chunk = try readChunk(fd, upTo: 64 * 1024)
      if chunk.isEmpty { return all }
      all += chunk
    }
  }

  /// A whole file (`path`), or standard input for `-`, as bytes.
  public static func readFile(_ path: String) throws(SystemError) -> [UInt8] {
    if path == "-" { return try readAll(0) }
    let fd = try openForReading(path)
    defer { _ = close(fd) }
    return try readAll(fd)
  }

  /// All of `bytes`, however many calls it takes.
  public static func writeAll(_ fd: Int32, _ bytes: some Collection<UInt8>) throws(SystemError) {
    let array = Array(bytes)
    var offset = 0
    while offset < array.count {
      let wrote = array.withUnsafeBytes { all in all.baseAddress.map { write(fd, $0 + offset, all.count - offset) } ?? 0 }
      if wrote >= 0 {
        offset += wrote
      } else if errno != EINTR {
        throw SystemError()
      }
    }
  }
}

/// Runs `body` on a new detached thread of its own (in place of Foundation's `Thread`); false
/// when the system has no thread to give (resource limits), and `body` then never runs.
@discardableResult
public func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
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
public func isDirectory(_ path: String) -> Bool? {
  var info = stat()
  guard stat(path, &info) == 0 else { return nil }
  return info.st_mode & S_IFMT == S_IFDIR
}
