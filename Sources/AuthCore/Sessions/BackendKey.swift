import Essentials

/// The backend that issues a session: provider + endpoint (scheme, host, port, path) + project for
/// Firebase. Sessions, the remembered e-mail and reset holds are stored under this key, never under
/// a profile name, so a token is only ever sent back to the endpoint that issued it.
package struct BackendKey: Sendable, Hashable, CustomStringConvertible {
  package let provider: ProviderKind
  package let scheme: String
  package let host: String
  package let port: Int
  package let path: String
  /// Firebase: the project id, or `key-<hash>` of the API key when no project id is configured
  /// (the Web API key names the project). Supabase: nil (the host names the project).
  package let project: String?
  /// Firebase: the tenant whose user store issued the session (another issuer than the project).
  package let tenant: String?

  package init(_ target: Target) {
    provider = target.provider
    let endpoint = Endpoint.of(target.url)
    scheme = endpoint.scheme
    host = endpoint.host
    port = endpoint.port
    path = endpoint.path
    if target.provider == .firebase {
      project = target.projectId.flatMap { $0.isEmpty ? nil : $0 } ?? "key-" + BackendKey.shortHash(target.key)
    } else {
      project = nil
    }
    tenant = target.provider == .firebase ? target.tenantId : nil
  }

  /// `supabase https://abcd.supabase.co:443/auth/v1`, `firebase http://127.0.0.1:9099/… project=demo`:
  /// what the session file records as its issuer (no secrets).
  package var canonical: String {
    var text = "\(provider.rawValue) \(scheme)://\(host):\(port)\(path)"
    if let project { text += " project=\(project)" }
    if let tenant { text += " tenant=\(tenant)" }
    return text
  }

  package var description: String { canonical }

  /// The file name (without `.json`) for a canonical key: `supabase-abcd.supabase.co-1f2e3d4c`,
  /// `firebase-127.0.0.1-9099-0a1b2c3d` (provider, host, non-default port, hash of the whole key).
  /// Any other string (a key made by hand) becomes its safe characters plus the hash.
  package static func fileStem(_ canonical: String) -> String {
    let words = canonical.split(separator: " ", maxSplits: 1).map(String.init)
    var readable = canonical
    if words.count == 2, let endpoint = Endpoint.parsed(words[1].split(separator: " ").first.map(String.init) ?? "") {
      readable = words[0] + "-" + endpoint.host
      if !endpoint.defaultPort { readable += "-\(endpoint.port)" }
    }
    let safe = readable.map {
      $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") ? $0 : "_"
    }
    var stem = String(safe.prefix(80))
    while stem.hasPrefix(".") { stem = "_" + stem.dropFirst() }
    return stem + "-" + shortHash(canonical)
  }

  /// 8 hex digits of FNV-1a (64-bit): tells keys apart in file names; not a security measure (the
  /// file records its full key and is checked against it on load).
  package static func shortHash(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash >> 32, radix: 16)
    return String(repeating: "0", count: max(0, 8 - hex.count)) + hex
  }
}

/// The parts of an endpoint URL a backend key is made of. Every command of a shell or a script
/// names its backend (sessions are loaded and saved under its key), and the URLs in one run are
/// few: each is parsed once.
struct Endpoint: Sendable {
  var scheme: String
  var host: String
  var port: Int
  var path: String
  /// Whether the URL named a host (a key made by hand may not) and no port, or the scheme's own.
  var hasHost: Bool
  var defaultPort: Bool

  private static let parsedURLs = Memo<String, Endpoint>()

  /// The URL's parts, lower-cased scheme and host, without trailing slashes in the path; the URL
  /// itself stands for the host when it has none.
  static func of(_ url: String) -> Endpoint {
    parsedURLs.value(for: url) {
      let parsed = URLComponents(string: url.trimmingSpaces)
      let scheme = parsed?.scheme?.lowercased() ?? ""
      var path = parsed?.path ?? ""
      while path.hasSuffix("/") { path.removeLast() }
      let defaultPort = scheme == "http" ? 80 : 443
      return Endpoint(
        scheme: scheme, host: parsed?.host?.lowercased() ?? url, port: parsed?.port ?? defaultPort, path: path,
        hasHost: parsed?.host != nil, defaultPort: parsed?.port == nil || parsed?.port == defaultPort)
    }
  }

  /// The parts of a URL that names a host, nil otherwise.
  static func parsed(_ url: String) -> Endpoint? {
    let endpoint = of(url)
    return endpoint.hasHost ? endpoint : nil
  }
}
