import AuthCore
import Essentials
import JSONKit

/// `--verbose` lines. Credentials are masked here already; the output redactor is a second net.
enum WireTrace {
  static let secretHeaders: Set<String> = ["authorization", "apikey", "x-goog-api-key", "cookie", "set-cookie"]
  /// Fields whose string values are masked wherever they appear in a body: passwords and tokens,
  /// TOTP secrets and what carries them (Supabase `totp.secret`, `totp.uri`, `totp.qr_code`;
  /// Firebase `sharedSecretKey`), one-time codes and pending second steps, and the keys that make
  /// exported password hashes crackable (Firebase `signerKey`, `saltSeparator`), and a PKCE
  /// exchange's verifier and code.
  static let secretFields: Set<String> = [
    "password", "newPassword", "new_password", "access_token", "refresh_token", "id_token", "idToken", "refreshToken",
    "oobCode", "token", "token_hash", "passwordHash", "password_hash", "encrypted_password", "hashed_token",
    "email_otp", "action_link", "oobLink",
    "secret", "uri", "qr_code", "sharedSecretKey", "verificationCode", "mfaPendingCredential", "totpSessionInfo",
    "sessionInfo", "code", "otp", "phone_otp", "signerKey", "saltSeparator", "nonce", "code_verifier", "auth_code",
  ]
  /// Query parameters masked in URLs: in the request line and in any link inside a body.
  static let secretParameters: Set<String> = [
    "key", "token", "token_hash", "oobCode", "code", "secret", "otp", "access_token", "refresh_token", "id_token",
    "mfaPendingCredential", "sessionInfo",
  ]
  /// The TOTP secrets an answer carries, to be registered with the redactor before it is traced.
  static let enrolmentSecretFields: Set<String> = ["secret", "sharedSecretKey"]

  static func describe(_ request: HTTPRequest) -> String {
    var lines = ["> \(request.method) \(maskQuery(request.url))"]
    for header in request.headers {
      let value = secretHeaders.contains(header.name.lowercased()) ? Redactor.mask : header.value
      lines.append("> \(header.name): \(value)")
    }
    if let body = request.body, !body.isEmpty { lines.append("> " + maskBody(body)) }
    return lines.joined(separator: "\n")
  }

  static func describe(_ response: HTTPResponse, elapsed: TimeInterval) -> String {
    var lines = ["< HTTP \(response.status) (\(Int(elapsed * 1000)) ms)"]
    for header in response.headers
    where ["content-type", "x-supabase-api-version", "retry-after", "x-sb-error-code"].contains(
      header.name.lowercased())
    {
      lines.append("< \(header.name): \(header.value)")
    }
    if !response.body.isEmpty { lines.append("< " + maskBody(response.body)) }
    return lines.joined(separator: "\n")
  }

  static func maskQuery(_ url: URL) -> String {
    maskLink(url.absoluteString)
  }

  /// A URL, or text holding one, with the values of secret query parameters (and of a fragment's
  /// `key=value` pairs, as in recovery links) masked. Text without `=` is returned as it is.
  static func maskLink(_ text: String) -> String {
    guard text.contains("=") else { return text }
    var out = ""
    var rest = Substring(text)
    // Each `name=value` after `?`, `&`, `#` or `;`: the value up to the next separator.
    while let start = rest.firstIndex(where: { $0 == "?" || $0 == "&" || $0 == "#" || $0 == ";" }) {
      out += rest[...start]
      rest = rest[rest.index(after: start)...]
      guard let equals = rest.firstIndex(of: "="),
        !rest[..<equals].contains(where: { "?&#; \"".contains($0) })
      else { continue }
      let name = String(rest[..<equals])
      let valueStart = rest.index(after: equals)
      let valueEnd = rest[valueStart...].firstIndex(where: { "&#; \"".contains($0) }) ?? rest.endIndex
      out += name + "="
      out +=
        secretParameters.contains(name) && valueStart != valueEnd ? Redactor.mask : String(rest[valueStart..<valueEnd])
      rest = rest[valueEnd...]
    }
    return out + rest
  }

  static func maskBody(_ body: [UInt8]) -> String {
    if let json = try? JSON.parse(bytes: body) { return mask(json).compactText }
    let text = String(decoding: body, as: UTF8.self)
    // Form bodies (securetoken refresh, the service-account JWT-bearer grant): mask secret values.
    if text.contains("=") && !text.contains(" ") {
      return text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
        let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
        if name == "assertion" || secretFields.contains(name) || secretParameters.contains(name) {
          return "\(name)=\(Redactor.mask)"
        }
        return String(pair)
      }.joined(separator: "&")
    }
    let shown = maskLink(text)
    return shown.count > 500 ? String(shown.prefix(500)) + "…" : shown
  }

  static func mask(_ json: JSON) -> JSON {
    switch json {
    case .object(let object):
      var masked = JSONObject()
      for (key, value) in object.pairs {
        masked[key] = secretFields.contains(key) && value.string != nil ? .string(Redactor.mask) : mask(value)
      }
      return .object(masked)
    case .array(let items): return .array(items.map(mask))
    case .string(let text): return .string(maskLink(text))
    default: return json
    }
  }

  /// The values of `enrolmentSecretFields` anywhere in a JSON body (none when it is not JSON).
  static func enrolmentSecrets(in body: [UInt8]) -> [String] {
    guard !body.isEmpty, let json = try? JSON.parse(bytes: body) else { return [] }
    var found: [String] = []
    func walk(_ json: JSON) {
      switch json {
      case .object(let object):
        for (key, value) in object.pairs {
          if enrolmentSecretFields.contains(key), let text = value.string { found.append(text) } else { walk(value) }
        }
      case .array(let items): items.forEach(walk)
      default: break
      }
    }
    walk(json)
    return found
  }
}
