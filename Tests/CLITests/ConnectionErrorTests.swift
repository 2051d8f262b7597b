import AuthTestSupport
import Foundation
import Testing

/// What `authsh` prints when the backend URL is wrong or nothing listens there (the real binary).
@Suite struct ConnectionErrorTests {
  /// A loopback port nothing listens on: bind port 0, note it, close it.
  static func closedPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  @Test(arguments: ["http", "https"])
  func refusedLoopbackPortSaysSoAndExits3(_ scheme: String) async throws {
    let port = try Self.closedPort()
    let out = try await BinaryRunner().run([
      "login", "ada@example.com", "--password", "pw-123456", "--provider", "supabase", "--url", "\(scheme)://127.0.0.1:\(port)",
      "--key", "anon",
    ])
    #expect(out.status == 3, "\(out.combined)")
    #expect(out.stderr.contains("Could not connect to 127.0.0.1:\(port) (connection refused) — is the server running?"), "\(out.stderr)")
    #expect(out.stderr.contains("network_unreachable"))
  }

  @Test func urlWithoutSchemeSuggestsHTTP() async throws {
    let out = try await BinaryRunner().run([
      "login", "ada@example.com", "--password", "pw-123456", "--provider", "supabase", "--url", "127.0.0.1:54321", "--key", "anon",
    ])
    #expect(out.status == 78, "\(out.combined)")
    #expect(out.stderr.contains("The Supabase URL '127.0.0.1:54321' does not start with http:// or https://."), "\(out.stderr)")
    #expect(out.stderr.contains("Did you mean http://127.0.0.1:54321?"))
  }

  @Test func unsupportedSchemeSaysSo() async throws {
    let out = try await BinaryRunner().run([
      "login", "ada@example.com", "--password", "pw-123456", "--provider", "supabase", "--url", "ftp://127.0.0.1:54321", "--key", "anon",
    ])
    #expect(out.status == 78, "\(out.combined)")
    #expect(out.stderr.contains("uses the unsupported scheme 'ftp'"), "\(out.stderr)")
  }
}
