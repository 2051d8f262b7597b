import AuthCore
import NIOCore
import PostgresNIO

/// PostgreSQL failures → the catalogue's codes, in sentences that name the database by
/// `DatabaseURL.display` (never its password).
enum DatabaseErrors {
  enum Phase { case connect, read }

  static func map(_ error: Error, url: DatabaseURL, phase: Phase) -> AuthError {
    if let error = error as? AuthError { return error }
    if error is CancellationError { return AuthError(.cancelled) }
    let place = url.display
    guard let psql = error as? PSQLError else {
      return AuthError(.providerError, message: "The database \(place) could not be read.", detail: String(describing: type(of: error)))
    }
    let state = psql.serverInfo?[.sqlState]
    let serverMessage = psql.serverInfo?[.message]
    switch (psql.code, state) {
    case (.server, "28P01"), (.server, "28000"):
      return AuthError(
        .configError, message: "The database \(place) refused the password of \(url.user).",
        providerCode: state, detail: serverMessage,
        hint: "Check the password in the --db URL (Supabase dashboard: Connect, or Database settings to reset it).")
    case (.server, "3D000"):
      return AuthError(.configError, message: "The database server at \(place) has no database named '\(url.database)'.", providerCode: state)
    case (.server, "42501"):
      return AuthError(
        .configError, message: "\(url.user) may not read GoTrue's tables in \(place).", providerCode: state, detail: serverMessage,
        hint: "Connect as a role that may read the auth schema (postgres).")
    case (.server, "42P01"), (.server, "3F000"):
      return AuthError(
        .configError, message: "The database \(place) has no auth.users table: is it a Supabase project's database?", providerCode: state,
        detail: serverMessage)
    case (.server, "57014"):
      return AuthError(.timeout, message: "The database \(place) cancelled the read (statement timeout).", providerCode: state)
    case (.server, _):
      return AuthError(
        .serverError, message: "The database \(place) answered an error\(state.map { " (SQLSTATE \($0))" } ?? "").",
        providerCode: state, detail: serverMessage)
    case (.authMechanismRequiresPassword, _):
      return AuthError(
        .configError, message: "The database \(place) wants a password for \(url.user) and the --db URL has none.",
        hint: "postgres://USER:PASSWORD@HOST:PORT/DATABASE")
    case (.sslUnsupported, _):
      return AuthError(
        .configError, message: "The database server at \(place) does not offer TLS, and the --db URL's sslmode requires it.",
        hint: "Add ?sslmode=disable to the URL for a server on this machine.")
    case (.connectionError, _), (.serverClosedConnection, _), (.uncleanShutdown, _):
      if phase == .connect {
        return AuthError(
          .networkUnreachable, message: "Could not connect to the database at \(url.host):\(url.port): \(reason(psql.underlying)).",
          detail: psql.underlying.map { String(describing: $0) })
      }
      return AuthError(.networkUnreachable, message: "The connection to the database \(place) was lost.")
    default:
      return AuthError(.providerError, message: "The database \(place) could not be read (\(psql.code)).")
    }
  }

  static func reason(_ underlying: Error?) -> String {
    guard let underlying else { return "no answer" }
    let text = String(describing: underlying)
    if text.contains("refused") || text.contains("ECONNREFUSED") { return "connection refused" }
    if text.contains("timeout") || text.contains("Timeout") { return "no answer (timed out)" }
    if let io = underlying as? IOError { return String(cString: strerror(io.errnoCode)) }
    return "no answer"
  }
}
