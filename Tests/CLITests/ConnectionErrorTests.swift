import AuthTestSupport
import Foundation
import Testing

/// What `authsh` prints when the backend URL is wrong or nothing listens there (the real binary).
@Suite struct ConnectionErrorTests {
  @Test(arguments: ["http", "https"])
  func refusedLoopbackPortSaysSoAndExits3(_ scheme: String) async throws {
    let reserved = try ReservedPort()
    let port = reserved.port
    let out = try await BinaryRunner().run([
      "login", "ada@example.com", "--password", "pw-123456", "--provider", "supabase", "--url",
      "\(scheme)://127.0.0.1:\(port)",
      "--key", "anon",
    ])
    #expect(out.status == 3, "\(out.combined)")
    #expect(
      out.stderr.contains("Could not connect to 127.0.0.1:\(port) (connection refused) — is the server running?"),
      "\(out.stderr)")
    withExtendedLifetime(reserved) {}
    #expect(out.stderr.contains("network_unreachable"))
  }

  @Test func urlWithoutSchemeSuggestsHTTP() async throws {
    let out = try await BinaryRunner().run([
      "login", "ada@example.com", "--password", "pw-123456", "--provider", "supabase", "--url", "127.0.0.1:54321",
      "--key", "anon",
    ])
    #expect(out.status == 78, "\(out.combined)")
    #expect(
      out.stderr.contains("The Supabase URL '127.0.0.1:54321' does not start with http:// or https://."),
      "\(out.stderr)")
    #expect(out.stderr.contains("Did you mean http://127.0.0.1:54321?"))
  }

  @Test func unsupportedSchemeSaysSo() async throws {
    let out = try await BinaryRunner().run([
      "login", "ada@example.com", "--password", "pw-123456", "--provider", "supabase", "--url", "ftp://127.0.0.1:54321",
      "--key", "anon",
    ])
    #expect(out.status == 78, "\(out.combined)")
    #expect(out.stderr.contains("uses the unsupported scheme 'ftp'"), "\(out.stderr)")
  }

  /// A name that only starts like a loopback address is another machine: plain HTTP to it is
  /// refused before anything is sent (`insecure_url`, not a failed lookup), for the anon key of a
  /// sign-in and the service key of an admin command alike.
  @Test(arguments: [["login", "ada@example.com", "--password", "pw-123456"], ["user", "list"]])
  func aNameStartingWith127IsNotLoopback(_ command: [String]) async throws {
    let out = try await BinaryRunner().run(
      command,
      extraEnvironment: [
        "SUPABASE_URL": "http://127.evil.test:1", "SUPABASE_ANON_KEY": "anon",
        "SUPABASE_SECRET_KEY": "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz",
      ])
    #expect(out.status != 0, "\(out.combined)")
    #expect(out.stderr.contains("Refusing to send credentials over plain HTTP to 127.evil.test"), "\(out.stderr)")
    #expect(out.stderr.contains("insecure_url"), "\(out.stderr)")
    #expect(!out.stderr.contains("resolve"), "\(out.stderr)")
  }
}
