import AuthCore
import Testing

@testable import PostgresExport

@Suite struct DatabaseErrorsTests {
  let url: DatabaseURL

  init() throws { url = try DatabaseURL("postgres://exporter:s3cret@db.example.com:6543/app") }

  func connect(_ message: String) -> AuthError { DatabaseErrors.map(PqFailure.connect(message), url: url) }

  /// libpq 15's messages, as it words them.
  @Test func connectFailures() {
    let refused = connect(
      "connection to server at \"db.example.com\" (10.0.0.1), port 6543 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?\n"
    )
    #expect(refused.code == .networkUnreachable)
    #expect(refused.message == "Could not connect to the database at db.example.com:6543: connection refused.")
    let unknown = connect("could not translate host name \"db.example.com\" to address: Name or service not known\n")
    #expect(unknown.code == .networkUnreachable && unknown.message.hasSuffix(": host not found (DNS lookup failed)."))
    let slow = connect("connection to server at \"db.example.com\" (10.0.0.1), port 6543 failed: timeout expired\n")
    #expect(slow.code == .networkUnreachable && slow.message.hasSuffix(": no answer (timed out)."))
    let password = connect(
      "connection to server at \"db.example.com\" (10.0.0.1), port 6543 failed: FATAL:  password authentication failed for user \"exporter\"\n"
    )
    #expect(
      password.code == .configError
        && password.message
          == "The database postgres://exporter@db.example.com:6543/app refused the password of exporter."
    )
    #expect(
      password.providerCode == "28P01" && password.detail == "password authentication failed for user \"exporter\"")
    let none = connect(
      "connection to server at \"db.example.com\" (10.0.0.1), port 6543 failed: fe_sendauth: no password supplied\n")
    #expect(
      none.code == .configError && none.message.contains("neither the --db URL, PGPASSWORD nor ~/.pgpass has one"))
    let missing = connect(
      "connection to server at \"h\" (10.0.0.1), port 6543 failed: FATAL:  database \"app\" does not exist\n")
    #expect(
      missing.code == .configError && missing.providerCode == "3D000"
        && missing.message.contains("no database named 'app'"))
    let plain = connect("server does not support SSL, but SSL was required\n")
    #expect(plain.code == .configError && plain.message.contains("does not offer TLS"))
    let untrusted = connect(
      "connection to server at \"h\" (10.0.0.1), port 6543 failed: SSL error: certificate verify failed\n")
    #expect(
      untrusted.code == .networkUnreachable
        && untrusted.message.hasPrefix("No trusted TLS connection to the database at db.example.com:6543"))
  }

  @Test func theServersOwnRefusals() {
    let hba = connect(
      "connection to server at \"h\" (10.0.0.1), port 6543 failed: FATAL:  no pg_hba.conf entry for host \"10.0.0.2\", user \"exporter\", database \"app\", no encryption\n"
    )
    #expect(hba.code == .configError && hba.providerCode == "28000" && hba.message.contains("does not let exporter in"))
    let full = connect(
      "connection to server at \"h\" (10.0.0.1), port 6543 failed: FATAL:  sorry, too many clients already\n")
    #expect(
      full.code == .serverError && full.message.hasSuffix("refused the connection: sorry, too many clients already."))
  }

  @Test func statementFailuresBySQLState() {
    let denied = DatabaseErrors.map(
      PqFailure.statement(sqlState: "42501", message: "permission denied for table users"), url: url)
    #expect(denied.code == .configError && denied.message.contains("may not read GoTrue's tables"))
    let cancelled = DatabaseErrors.map(PqFailure.statement(sqlState: "57014", message: "canceling statement"), url: url)
    #expect(cancelled.code == .timeout)
    let other = DatabaseErrors.map(PqFailure.statement(sqlState: "XX000", message: "internal"), url: url)
    #expect(other.code == .serverError && other.message.contains("SQLSTATE XX000"))
    let lost = DatabaseErrors.map(PqFailure.lost("server closed the connection unexpectedly"), url: url)
    #expect(lost.code == .networkUnreachable && lost.message.contains("was lost"))
  }

  @Test func missingLibpqNamesThePackage() {
    let error = DatabaseErrors.map(PqFailure.missing("libpq.so.5 could not be loaded (not found)"), url: url)
    #expect(error.code == .networkUnreachable)
    #expect(error.message.contains("libpq.so.5 could not be loaded") && error.message.contains("apt install libpq5"))
  }

  @Test func noMessageHoldsThePassword() {
    let failures: [PqFailure] = [
      .connect("password authentication failed"), .connect("Connection refused"),
      .statement(sqlState: "42P01", message: "x"),
      .lost("gone"), .missing("none"),
    ]
    for failure in failures {
      let error = DatabaseErrors.map(failure, url: url)
      #expect(!error.message.contains("s3cret") && !(error.detail ?? "").contains("s3cret"))
    }
  }
}
