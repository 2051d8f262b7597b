import Foundation

/// The backend that issues a session: provider + endpoint (scheme, host, port, path) + project for
/// Firebase. Sessions, the remembered e-mail and reset holds are stored under this key, never under
/// a profile name, so a token is only ever sent back to the endpoint that issued it.
public struct BackendKey: Sendable, Hashable, CustomStringConvertible {
  public let provider: ProviderKind
  public let scheme: String
  public let host: String
  public let port: Int
  public let path: String
  /// Firebase: the project id, or `key-<hash>` of the API key when no project id is configured
  /// (the Web API key names the project). Supabase: nil (the host names the project).
  public let project: String?
  /// Firebase: the tenant whose user store issued the session (another issuer than the project).
  public let tenant: String?

  public init(_ target: Target) {
    provider = target.provider
    let parsed = URLComponents(string: target.url.trimmingCharacters(in: .whitespaces))
    let scheme = parsed?.scheme?.lowercased() ?? ""
    self.scheme = scheme
    host = parsed?.host?.lowercased() ?? target.url
    port = parsed?.port ?? (scheme == "http" ? 80 : 443)
    var path = parsed?.path ?? ""
    while path.hasSuffix("/") { path.removeLast() }
    self.path = path
    if target.provider == .firebase {
      project = target.projectId.flatMap { $0.isEmpty ? nil : $0 } ?? "key-" + BackendKey.shortHash(target.key)
    } else {
      project = nil
    }
    tenant = target.provider == .firebase ? target.tenantId : nil
  }

  /// `supabase https://abcd.supabase.co:443/auth/v1`, `firebase http://127.0.0.1:9099/… project=demo`:
  /// what the session file records as its issuer (no secrets).
  public var canonical: String {
    var text = "\(provider.rawValue) \(scheme)://\(host):\(port)\(path)"
    if let project { text += " project=\(project)" }
    if let tenant { text += " tenant=\(tenant)" }
    return text
  }

  public var description: String { canonical }

  /// The file name (without `.json`) for a canonical key: `supabase-abcd.supabase.co-1f2e3d4c`,
  /// `firebase-127.0.0.1-9099-0a1b2c3d` (provider, host, non-default port, hash of the whole key).
  /// Any other string (a key made by hand) becomes its safe characters plus the hash.
  public static func fileStem(_ canonical: String) -> String {
    let words = canonical.split(separator: " ", maxSplits: 1).map(String.init)
    var readable = canonical
    if words.count == 2, let parts = URLComponents(string: words[1].split(separator: " ").first.map(String.init) ?? ""),
      let host = parts.host
    {
      readable = words[0] + "-" + host
      if let port = parts.port, port != (parts.scheme == "http" ? 80 : 443) { readable += "-\(port)" }
    }
    let safe = readable.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") ? $0 : "_" }
    var stem = String(safe.prefix(80))
    while stem.hasPrefix(".") { stem = "_" + stem.dropFirst() }
    return stem + "-" + shortHash(canonical)
  }

  /// 8 hex digits of FNV-1a (64-bit): tells keys apart in file names; not a security measure (the
  /// file records its full key and is checked against it on load).
  public static func shortHash(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash >> 32, radix: 16)
    return String(repeating: "0", count: max(0, 8 - hex.count)) + hex
  }
}
