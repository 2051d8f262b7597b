/// The URL as libpq's connection keywords (PQconnectdbParams), never as a conninfo string: no
/// value is ever spliced into text libpq would parse.
extension DatabaseURL {
  /// `timeout`: the command's timeout in seconds, libpq's `connect_timeout` (whole seconds, at
  /// least 1; libpq reads 1 as 2). `rootCertificate`: the CA bundle for verify-ca / verify-full
  /// (see `rootCertificate(environment:home:exists:)`); nil leaves libpq's own default.
  func connectionParameters(timeout: Double, rootCertificate: String?) -> [(String, String)] {
    let seconds = timeout.isFinite ? max(1, Int(min(timeout, 86_400).rounded(.up))) : 30
    var parameters: [(String, String)] = [
      ("host", host), ("port", String(port)), ("user", user), ("dbname", database),
      ("sslmode", tls.rawValue), ("connect_timeout", String(seconds)),
      // Text comes back as UTF-8 whatever the server's encoding; no Kerberos attempt first
      // (GSSAPI encryption was never offered before libpq, and it can stall a connect).
      ("client_encoding", "UTF8"), ("gssencmode", "disable"), ("application_name", "authsh"),
    ]
    if let password { parameters.append(("password", password)) }
    if let rootCertificate, tls == .verifyCA || tls == .verifyFull { parameters.append(("sslrootcert", rootCertificate)) }
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
