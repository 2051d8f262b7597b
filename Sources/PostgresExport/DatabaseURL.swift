import AuthCore

import Essentials

/// A `postgres://user:password@host:port/database?sslmode=…` URL (libpq's form), taken apart.
/// The password is never part of a message: `display` names the user, host, port and database.
public struct DatabaseURL: Sendable, Equatable {
  public enum TLSMode: String, Sendable {
    /// libpq's modes: `disable`; `prefer` and `require` encrypt without checking the certificate
    /// (as libpq does without a root certificate); `verify-ca` / `verify-full` check it.
    case disable, prefer, require
    case verifyCA = "verify-ca"
    case verifyFull = "verify-full"
  }

  public var host: String
  public var port: Int
  public var user: String
  public var password: String?
  public var database: String
  public var tls: TLSMode

  /// `postgres://user@host:5432/postgres` — what messages show.
  public var display: String { "postgres://\(user)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)" }

  /// Throws a usage error that never repeats the password.
  public init(_ text: String) throws {
    let trimmed = text.trimmingWhitespace
    guard let components = URLComponents(string: trimmed),
      let scheme = components.scheme?.lowercased(), ["postgres", "postgresql"].contains(scheme)
    else {
      throw AuthError(
        .usage, message: "--db takes a PostgreSQL URL: postgres://USER:PASSWORD@HOST:5432/postgres (the project's database connection string).")
    }
    // An IPv6 address comes bracketed ([::1]); libpq and `display` want it bare.
    var host = components.host ?? ""
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard !host.isEmpty else {
      throw AuthError(.usage, message: "The --db URL names no host: postgres://USER:PASSWORD@HOST:5432/postgres.")
    }
    self.host = host
    port = components.port ?? 5432
    user = components.percentEncodedUser.map(Self.percentDecoded) ?? "postgres"
    password = components.percentEncodedPassword.map(Self.percentDecoded)
    let path = components.percentEncodedPath
    let name = Self.percentDecoded(path.hasPrefix("/") ? String(path.dropFirst()) : path)
    database = name.isEmpty ? "postgres" : name
    let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
    switch mode {
    case "allow": tls = .prefer
    case let other:
      guard let parsed = TLSMode(rawValue: other) else {
        throw AuthError(.usage, message: "The --db URL's sslmode '\(other)' is not one of disable, prefer, require, verify-ca, verify-full.")
      }
      tls = parsed
    }
  }

  /// The password as it appears in the URL (percent-encoded or not), for the redactor.
  public static func secrets(in text: String) -> [String] {
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
