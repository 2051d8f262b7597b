import AuthCore
import Testing

@testable import PostgresExport

@Suite struct DatabaseURLTests {
  @Test func partsOfAConnectionString() throws {
    let url = try DatabaseURL("  postgresql://exporter:s3cret@db.example.com:6543/app?sslmode=verify-full \n")
    #expect(url.host == "db.example.com" && url.port == 6543 && url.user == "exporter")
    #expect(url.password == "s3cret" && url.database == "app" && url.tls == .verifyFull)
    #expect(url.display == "postgres://exporter@db.example.com:6543/app")
  }

  @Test func defaults() throws {
    let url = try DatabaseURL("postgres://db.example.com")
    #expect(
      url.port == 5432 && url.user == "postgres" && url.password == nil && url.database == "postgres"
        && url.tls == .prefer)
    #expect(try DatabaseURL("postgres://h/?sslmode=allow").tls == .prefer)
  }

  /// Percent escapes are decoded once: a password with '@' or ':' is written %40 / %3A, and a
  /// literal "%41" is written %2541.
  @Test func percentEscapesAreDecodedOnce() throws {
    let url = try DatabaseURL("postgres://us%2541er:p%40ss%3Aw%C3%B6rd@h:1/my%20db")
    #expect(url.user == "us%41er" && url.password == "p@ss:wörd" && url.database == "my db")
    #expect(DatabaseURL.percentDecoded("100%") == "100%" && DatabaseURL.percentDecoded("%zz%4") == "%zz%4")
    #expect(DatabaseURL.percentDecoded("a%41%zz") == "a%41%zz", "a malformed escape leaves the whole text as written")
    #expect(DatabaseURL.secrets(in: "postgres://u:p%40ss@h/db") == ["p%40ss", "p@ss"])
    #expect(DatabaseURL.secrets(in: "postgres://u@h/db").isEmpty)
  }

  @Test func anIPv6HostIsBareAndShownBracketed() throws {
    let url = try DatabaseURL("postgres://u:p@[::1]:5433/db")
    #expect(url.host == "::1" && url.port == 5433)
    #expect(url.display == "postgres://u@[::1]:5433/db")
  }

  @Test func notAPostgresURLIsAUsageErrorWithoutThePassword() {
    for text in ["mysql://root:hunter2@localhost/db", "postgres://u:hunter2@h/db?sslmode=strict"] {
      do {
        _ = try DatabaseURL(text)
        Issue.record("\(text) was taken")
      } catch let error as AuthError {
        #expect(error.code == .usage)
        #expect(!error.message.contains("hunter2"))
      } catch {
        Issue.record("\(error)")
      }
    }
  }

  @Test func libpqKeywords() throws {
    let url = try DatabaseURL("postgres://exporter:s3cret@db.example.com:6543/app?sslmode=require")
    let parameters = Dictionary(
      uniqueKeysWithValues: url.connectionParameters(timeout: 2.5, rootCertificate: "/ca.pem"))
    #expect(parameters["host"] == "db.example.com" && parameters["port"] == "6543" && parameters["user"] == "exporter")
    #expect(parameters["password"] == "s3cret" && parameters["dbname"] == "app" && parameters["sslmode"] == "require")
    #expect(parameters["connect_timeout"] == "3" && parameters["client_encoding"] == "UTF8")
    // Only the verifying modes are given a CA bundle.
    #expect(parameters["sslrootcert"] == nil)
    let verify = try DatabaseURL("postgres://h/db?sslmode=verify-ca").connectionParameters(
      timeout: 0, rootCertificate: "/ca.pem")
    #expect(verify.contains { $0 == ("sslrootcert", "/ca.pem") } && verify.contains { $0 == ("connect_timeout", "1") })
    #expect(!verify.contains { $0.0 == "password" })
  }

  @Test func rootCertificateChoice() {
    let system = "/etc/ssl/certs/ca-certificates.crt"
    let all: (String) -> Bool = { _ in true }
    #expect(
      DatabaseURL.rootCertificate(environment: ["PGSSLROOTCERT": "/mine.pem"], home: "/home/a", exists: all) == nil)
    #expect(DatabaseURL.rootCertificate(environment: [:], home: "/home/a", exists: all) == nil)
    let noUserFile: (String) -> Bool = { $0 == system }
    #expect(
      DatabaseURL.rootCertificate(environment: ["SSL_CERT_FILE": "/proxy.pem"], home: "/home/a", exists: noUserFile)
        == "/proxy.pem")
    #expect(DatabaseURL.rootCertificate(environment: [:], home: "/home/a", exists: noUserFile) == system)
    #expect(DatabaseURL.rootCertificate(environment: [:], home: nil, exists: { _ in false }) == nil)
  }

  /// What the URL leaves out is libpq's to fill in (PGHOST, PGPORT, PGSSLMODE, a service,
  /// PGPASSWORD or ~/.pgpass): only Supabase's default user and database are named, and only
  /// where neither PGUSER/PGDATABASE nor a service names them.
  @Test func whatTheURLLeavesOutIsLeftToLibpq() throws {
    func keywords(_ text: String, _ environment: [String: String] = [:]) throws -> [String: String] {
      Dictionary(
        uniqueKeysWithValues: try DatabaseURL(text, environment: environment).connectionParameters(
          timeout: 5, rootCertificate: nil))
    }
    let bare = try keywords("postgres://db.example.com")
    #expect(
      bare["host"] == "db.example.com" && bare["port"] == nil && bare["sslmode"] == nil && bare["password"] == nil)
    #expect(bare["user"] == "postgres" && bare["dbname"] == "postgres")
    let pgUser = try keywords(
      "postgres://db.example.com", ["PGUSER": "exporter", "PGDATABASE": "app", "PGPORT": "6543"])
    #expect(pgUser["user"] == nil && pgUser["dbname"] == nil && pgUser["port"] == nil)
    let url = try DatabaseURL("postgres://db.example.com", environment: ["PGUSER": "exporter", "PGPORT": "6543"])
    #expect(url.display == "postgres://exporter@db.example.com:6543/postgres")
    let service = try keywords("postgresql://?service=prod")
    #expect(
      service == [
        "service": "prod", "connect_timeout": "5", "client_encoding": "UTF8", "gssencmode": "disable",
        "application_name": "authsh",
      ])
    #expect(try DatabaseURL("postgresql://?service=prod").display == "service 'prod'")
    let fromEnvironment = try keywords("postgresql://", ["PGSERVICE": "prod"])
    #expect(fromEnvironment["user"] == nil && fromEnvironment["host"] == nil && fromEnvironment["dbname"] == nil)
  }
}
