import AuthCore

/// libpq's failures → the catalogue's codes, in sentences that name the database by
/// `DatabaseURL.display` (never its password). A failed connect has no SQLSTATE in libpq, so its
/// causes are told apart by libpq's and the server's (English) messages; statements by SQLSTATE.
enum DatabaseErrors {
  static func map(_ error: Error, url: DatabaseURL) -> AuthError {
    if let error = error as? AuthError { return error }
    if error is CancellationError { return AuthError(.cancelled) }
    guard let failure = error as? PqFailure else {
      return AuthError(
        .providerError, message: "The database \(url.display) could not be read.",
        detail: String(describing: type(of: error)))
    }
    switch failure {
    case .missing(let detail):
      return AuthError(
        .networkUnreachable,
        message:
          "authsh reads databases (--db) through libpq, and libpq.so.5 could not be loaded. Install it (Debian, Ubuntu: apt install libpq5).",
        detail: detail)
    case .connect(let message): return connect(message, url: url)
    case .statement(let state, let message): return statement(state, message: message, url: url)
    case .lost(let message):
      return AuthError(
        .networkUnreachable, message: "The connection to the database \(url.display) was lost.",
        detail: firstLine(message))
    }
  }

  static func connect(_ message: String, url: DatabaseURL) -> AuthError {
    let place = url.display
    let text = message.lowercased()
    let detail = firstLine(message)
    if text.contains("password authentication failed") {
      return AuthError(
        .configError, message: "The database \(place) refused the password of \(url.user).", providerCode: "28P01",
        detail: detail,
        hint:
          "Check the password (in the --db URL, PGPASSWORD or ~/.pgpass; Supabase dashboard: Connect, or Database settings to reset it)."
      )
    }
    if text.contains("no pg_hba.conf entry") || (text.contains("role \"") && text.contains("does not exist")) {
      return AuthError(
        .configError, message: "The database \(place) does not let \(url.user) in.", providerCode: "28000",
        detail: detail,
        hint: "Check the user in the --db URL, and that the server accepts connections from this machine (pg_hba.conf)."
      )
    }
    if text.contains("no password supplied") {
      return AuthError(
        .configError,
        message:
          "The database \(place) wants a password for \(url.user), and neither the --db URL, PGPASSWORD nor ~/.pgpass has one.",
        hint:
          "Set PGPASSWORD, add a line to ~/.pgpass (mode 0600), or give the whole URL in a variable with --db-env VAR.")
    }
    if text.contains("database \""), text.contains("does not exist") {
      return AuthError(
        .configError, message: "The database server at \(place) has no database named '\(url.database)'.",
        providerCode: "3D000")
    }
    if text.contains("server does not support ssl") {
      return AuthError(
        .configError,
        message: "The database server at \(place) does not offer TLS, and the --db URL's sslmode requires it.",
        hint: "Add ?sslmode=disable to the URL for a server on this machine.")
    }
    if text.contains("certificate") || text.contains("ssl error") || text.contains("ssl syscall") {
      return AuthError(
        .networkUnreachable, message: "No trusted TLS connection to the database at \(hostAndPort(url)): \(detail).",
        hint:
          "verify-ca and verify-full trust the system's CAs: set SSL_CERT_FILE (or PGSSLROOTCERT) to the CA that signed the server's certificate."
      )
    }
    if text.contains("fatal:") {
      // The server answered the connect with an error of its own (too many connections, shutting down…).
      return AuthError(
        .serverError, message: "The database \(place) refused the connection: \(detail).", detail: detail)
    }
    return AuthError(
      .networkUnreachable, message: "Could not connect to the database at \(hostAndPort(url)): \(reason(text)).",
      detail: detail)
  }

  static func statement(_ state: String, message: String, url: DatabaseURL) -> AuthError {
    let place = url.display
    switch state {
    case "42501":
      return AuthError(
        .configError, message: "\(url.user) may not read GoTrue's tables in \(place).", providerCode: state,
        detail: message,
        hint: "Connect as a role that may read the auth schema (postgres).")
    case "42P01", "3F000":
      return AuthError(
        .configError, message: "The database \(place) has no auth.users table: is it a Supabase project's database?",
        providerCode: state,
        detail: message)
    case "57014":
      return AuthError(
        .timeout, message: "The database \(place) cancelled the read (statement timeout).", providerCode: state)
    default:
      return AuthError(
        .serverError, message: "The database \(place) answered an error (SQLSTATE \(state)).", providerCode: state,
        detail: message)
    }
  }

  /// Why a connect failed, from libpq's message (lower-cased).
  static func reason(_ text: String) -> String {
    if text.contains("connection refused") { return "connection refused" }
    if text.contains("could not translate host name") || text.contains("name or service not known") {
      return "host not found (DNS lookup failed)"
    }
    if text.contains("timeout expired") || text.contains("timed out") { return "no answer (timed out)" }
    if text.contains("network is unreachable") { return "network unreachable" }
    if text.contains("no route to host") { return "no route to host" }
    if text.contains("server closed the connection") { return "the server closed the connection" }
    return "no answer"
  }

  static func hostAndPort(_ url: DatabaseURL) -> String {
    (url.host.contains(":") ? "[\(url.host)]" : url.host) + ":\(url.port)"
  }

  /// libpq's message without its "connection to server at … failed:" preamble, on one line.
  static func firstLine(_ message: String) -> String {
    for line in message.split(whereSeparator: \.isNewline) {
      var text = Substring(line)
      if text.hasPrefix("connection to server"), let preamble = text.firstRange(of: "failed: ") {
        text = text[preamble.upperBound...]
      }
      if text.hasPrefix("FATAL:") { text = text.dropFirst(6) }
      let trimmed = String(text).trimmingWhitespace
      if !trimmed.isEmpty { return trimmed }
    }
    return ""
  }
}
