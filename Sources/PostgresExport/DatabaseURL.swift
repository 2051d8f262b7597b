import AuthCore
import Essentials

/// A `postgres://user:password@host:port/database?sslmode=…&service=…` URL (libpq's form), taken
/// apart. What it leaves out is left to libpq's own conventions: `PGHOST`, `PGPORT`, `PGUSER`,
/// `PGDATABASE`, `PGSSLMODE`, the password from `PGPASSWORD` or `~/.pgpass`, and a service of
/// `pg_service.conf` (`service=` or `PGSERVICE`). The password is never part of a message:
/// `display` names the user, host, port and database.
package struct DatabaseURL: Sendable, Equatable {
  package enum TLSMode: String, Sendable {
    /// libpq's modes: `disable`; `prefer` and `require` encrypt without checking the certificate
    /// (as libpq does without a root certificate); `verify-ca` / `verify-full` check it.
    case disable, prefer, require
    case verifyCA = "verify-ca"
    case verifyFull = "verify-full"
  }

  /// What libpq will use, as far as authsh can tell (for messages); `given` says which of
  /// `host`, `port`, `user`, `dbname`, `sslmode` the URL itself names.
  package var host: String
  package var port: Int
  package var user: String
  package var password: String?
  package var database: String
  package var tls: TLSMode
  /// `service=` of the URL: a section of `pg_service.conf`.
  package var service: String?
  var given: Set<String> = []
  /// Whether authsh names the user and database itself: Supabase's `postgres`, where neither
  /// the URL, `PGUSER`/`PGDATABASE` nor a service does.
  var defaultsUser = false
  var defaultsDatabase = false

  /// `postgres://user@host:5432/postgres` — what messages show.
  package var display: String {
    if let service = service ?? serviceFromEnvironment, !given.contains("host") { return "service '\(service)'" }
    return "postgres://\(user)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
  }
  private var serviceFromEnvironment: String?

  /// Throws a usage error that never repeats the password. `environment`: libpq's variables.
  package init(_ text: String, environment: [String: String] = [:]) throws {
    let trimmed = text.trimmingWhitespace
    guard let components = URLComponents(string: trimmed),
      let scheme = components.scheme?.lowercased(), ["postgres", "postgresql"].contains(scheme)
    else {
      throw AuthError(
        .usage,
        message:
          "--db takes a PostgreSQL URL: postgres://USER@HOST:5432/postgres (the project's database connection string).")
    }
    func env(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
    let query = components.queryItems ?? []
    service = query.first { $0.name == "service" }?.value.flatMap { $0.isEmpty ? nil : $0 }
    serviceFromEnvironment = env("PGSERVICE")
    let viaService = service != nil || serviceFromEnvironment != nil
    // An IPv6 address comes bracketed ([::1]); libpq and `display` want it bare.
    var host = components.host ?? ""
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    if !host.isEmpty { given.insert("host") }
    self.host = host.isEmpty ? env("PGHOST") ?? "localhost" : host
    if components.port != nil { given.insert("port") }
    port = components.port ?? env("PGPORT").flatMap { Int($0) } ?? 5432
    let namedUser = components.percentEncodedUser.map(Self.percentDecoded).flatMap { $0.isEmpty ? nil : $0 }
    if namedUser != nil { given.insert("user") }
    defaultsUser = namedUser == nil && env("PGUSER") == nil && !viaService
    user = namedUser ?? env("PGUSER") ?? "postgres"
    password = components.percentEncodedPassword.map(Self.percentDecoded)
    let path = components.percentEncodedPath
    let name = Self.percentDecoded(path.hasPrefix("/") ? String(path.dropFirst()) : path)
    if !name.isEmpty { given.insert("dbname") }
    defaultsDatabase = name.isEmpty && env("PGDATABASE") == nil && !viaService
    database = name.isEmpty ? env("PGDATABASE") ?? "postgres" : name
    let named = query.first { $0.name == "sslmode" }?.value
    if named != nil { given.insert("sslmode") }
    let mode = named ?? env("PGSSLMODE") ?? "prefer"
    switch mode {
    case "allow": tls = .prefer
    case let other:
      guard let parsed = TLSMode(rawValue: other) else {
        throw AuthError(
          .usage,
          message: "The --db URL's sslmode '\(other)' is not one of disable, prefer, require, verify-ca, verify-full.")
      }
      tls = parsed
    }
  }

  /// The password as it appears in the URL (percent-encoded or not), for the redactor.
  package static func secrets(in text: String) -> [String] {
    guard let components = URLComponents(string: text.trimmingWhitespace) else { return [] }
    var found: [String] = []
    if let encoded = components.percentEncodedPassword, !encoded.isEmpty {
      found.append(encoded)
      let decoded = percentDecoded(encoded)
      if !decoded.isEmpty, !found.contains(decoded) { found.append(decoded) }
    }
    return found
  }

  /// `%XX` escapes decoded; the text as it is when one is malformed or the bytes are not UTF-8.
  static func percentDecoded(_ text: String) -> String { text.percentDecoded ?? text }
}
