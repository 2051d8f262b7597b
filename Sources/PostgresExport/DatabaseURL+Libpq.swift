/// The URL as libpq's connection keywords (PQconnectdbParams), never as a conninfo string: no
/// value is ever spliced into text libpq would parse. A password the URL leaves out is libpq's to
/// find (`PGPASSWORD`, `~/.pgpass`, the service file), as it does for psql.
extension DatabaseURL {
  /// `timeout`: the command's timeout in seconds, libpq's `connect_timeout` (whole seconds, at
  /// least 1; libpq reads 1 as 2). `rootCertificate`: the CA bundle for verify-ca / verify-full
  /// (see `rootCertificate(environment:home:exists:)`); nil leaves libpq's own default.
  func connectionParameters(timeout: Double, rootCertificate: String?) -> [(String, String)] {
    let seconds = timeout.isFinite ? max(1, Int(min(timeout, 86_400).rounded(.up))) : 30
    // Only what the URL names (or Supabase's default user and database where nothing else
    // does): libpq fills in the rest from PGHOST, PGPORT, PGSSLMODE, a service, ~/.pgpass.
    var parameters: [(String, String)] = service.map { [("service", $0)] } ?? []
    if given.contains("host") { parameters.append(("host", host)) }
    if given.contains("port") { parameters.append(("port", String(port))) }
    if given.contains("user") || defaultsUser { parameters.append(("user", user)) }
    if given.contains("dbname") || defaultsDatabase { parameters.append(("dbname", database)) }
    if given.contains("sslmode") { parameters.append(("sslmode", tls.rawValue)) }
    parameters += [
      ("connect_timeout", String(seconds)),
      // Text comes back as UTF-8 whatever the server's encoding; no Kerberos attempt first
      // (GSSAPI encryption was never offered before libpq, and it can stall a connect).
      ("client_encoding", "UTF8"), ("gssencmode", "disable"), ("application_name", "authsh"),
    ]
    if let password { parameters.append(("password", password)) }
    if let rootCertificate, tls == .verifyCA || tls == .verifyFull {
      parameters.append(("sslrootcert", rootCertificate))
    }
    return parameters
  }

  /// Which certificates verify-ca / verify-full trust. libpq's own choice when the user made one
  /// (`PGSSLROOTCERT`, or `~/.postgresql/root.crt`); else `SSL_CERT_FILE` (as for https://), else
  /// the system's bundle — libpq 15 and older know no "system" roots of their own.
  static func rootCertificate(environment: [String: String], home: String?, exists: (String) -> Bool) -> String? {
    if let chosen = environment["PGSSLROOTCERT"], !chosen.isEmpty { return nil }
    if let home, !home.isEmpty, exists(home + "/.postgresql/root.crt") { return nil }
    if let bundle = environment["SSL_CERT_FILE"], !bundle.isEmpty { return bundle }
    let bundles = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem"]
    return bundles.first(where: exists)
  }
}
