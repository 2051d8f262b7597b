import Foundation

/// A loopback port that refuses connections and stays reserved while this value lives: the
/// socket is bound but never listens, so a connection gets ECONNREFUSED and no parallel test can
/// take the port in between (closing a probe socket first would leave that race open).
package final class ReservedPort: Sendable {
  package let port: Int
  private let fd: Int32

  package init() throws {
    (fd, port) = try Self.boundLoopbackSocket()
  }

  /// A TCP socket bound to a free port on 127.0.0.1, not listening (yet), and its port. It is
  /// not inherited by the processes other tests start.
  package static func boundLoopbackSocket() throws -> (fd: Int32, port: Int) {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    #endif
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else {
      close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
  }

  deinit { close(fd) }
}
