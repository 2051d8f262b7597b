import AuthCore
import Testing

@testable import PostgresExport

/// The real libpq, loaded at run time: a closed port on loopback is refused through it.
@Suite struct PqConnectionTests {
  @Test func libpqLoadsAndAClosedPortIsRefused() async throws {
    guard case .success(let name) = PqConnection.availability() else {
      Issue.record("libpq.so.5 is not installed (scripts/setup.sh installs libpq5)")
      return
    }
    #expect(name.hasPrefix("libpq"))
    let url = try DatabaseURL("postgres://u:p@127.0.0.1:9/postgres?sslmode=disable")
    do {
      _ = try await PqConnection.connect(url.connectionParameters(timeout: 5, rootCertificate: nil))
      Issue.record("port 9 answered")
    } catch {
      let mapped = DatabaseErrors.map(error, url: url)
      #expect(mapped.code == .networkUnreachable)
      #expect(mapped.message == "Could not connect to the database at 127.0.0.1:9: connection refused.")
    }
  }

  @Test func cStringsAreTerminatedAndKeepNulls() {
    let lengths = CStrings.with(["a", nil, "héllo"]) { pointers in
      pointers.map { $0.map { String(cString: $0) } }
    }
    #expect(lengths == ["a", nil, "héllo", nil])
  }
}
