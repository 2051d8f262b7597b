#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-buffer writes to a file descriptor, shared by the audit log, the session files and the
/// history file.
public enum Descriptor {
  /// Writes every byte, retrying interrupted and partial writes. Returns how many bytes went in
  /// and, when not all did, the reason (`ENOSPC` for a write(2) that returned 0: a device with
  /// no room sets no errno).
  public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> (written: Int, failure: Int32?) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        let n = write(fd, base + offset, buffer.count - offset)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return (offset, n < 0 ? errno : ENOSPC) }
        offset += n
      }
      return (offset, nil)
    }
  }
}
