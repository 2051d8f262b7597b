import AuthCore
import Essentials

#if canImport(Glibc)
  import Glibc
#endif

/// The second pass of `user import` over a source that cannot be read twice: standard input, a
/// pipe given as a path (`<(…)`, `/dev/stdin`) or a FIFO. Pass 1 reads the source as a stream and
/// copies each line to a private temporary file (mode 0600, unlinked as soon as it is made, so
/// nothing is left behind by a kill); pass 2 reads that copy. Memory stays one buffer whatever the
/// size of the input.
final class ImportSpill {
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  private static let flushAt = 1 << 20

  /// Whether `path` must be read once: anything but a regular file (`-` is standard input).
  static func isReadOnce(_ path: String) -> Bool {
    guard path != "-" else { return true }
    var info = stat()
    guard stat(path, &info) == 0 else { return false }
    return info.st_mode & S_IFMT != S_IFREG
  }

  init() throws(SystemError) {
    let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((directory + "/authsh-import-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw SystemError() }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    descriptor = fd
  }

  deinit { _ = close(descriptor) }

  /// Keeps one line (its bytes as read, without the LF).
  func append(_ line: [UInt8]) throws(SystemError) {
    buffer += line
    buffer.append(0x0A)
    if buffer.count >= Self.flushAt { try flush() }
  }

  private func flush() throws(SystemError) {
    guard !buffer.isEmpty else { return }
    let (_, failure) = Descriptor.writeAll(descriptor, buffer)
    buffer.removeAll(keepingCapacity: true)
    if let failure { throw SystemError(failure) }
  }

  /// The lines kept, from the first: call once pass 1 has read the whole source.
  func lines(limit: Int) throws(SystemError) -> DescriptorLines {
    try flush()
    guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw SystemError() }
    let copy = dup(descriptor)
    guard copy >= 0 else { throw SystemError() }
    return DescriptorLines(descriptor: copy, closeAtEnd: true, limit: limit)
  }
}
