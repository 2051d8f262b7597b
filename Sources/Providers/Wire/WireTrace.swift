import AuthCore
import Essentials
import JSONKit

/// `--verbose` lines. Credentials are masked here already; the output redactor is a second net.
enum WireTrace {
  static let secretHeaders: Set<String> = ["authorization", "apikey", "x-goog-api-key"]
  static let secretFields: Set<String> = [
    "password", "newPassword", "new_password", "access_token", "refresh_token", "id_token", "idToken", "refreshToken",
    "oobCode", "token", "token_hash", "passwordHash", "hashed_token", "email_otp", "action_link", "oobLink",
  ]

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
    for header in response.headers where ["content-type", "x-supabase-api-version", "retry-after", "x-sb-error-code"].contains(header.name.lowercased()) {
      lines.append("< \(header.name): \(header.value)")
    }
    if !response.body.isEmpty { lines.append("< " + maskBody(response.body)) }
    return lines.joined(separator: "\n")
  }

  static func maskQuery(_ url: URL) -> String {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let items = components.queryItems else {
      return url.absoluteString
    }
    components.queryItems = items.map { item in
      item.name == "key" ? URLQueryItem(name: item.name, value: Redactor.mask) : item
    }
    return components.string ?? url.absoluteString
  }

  static func maskBody(_ body: [UInt8]) -> String {
    if let json = try? JSON.parse(bytes: body) { return mask(json).compactText }
    let text = String(decoding: body, as: UTF8.self)
    // Form bodies (securetoken refresh, the service-account JWT-bearer grant): mask token values.
    if text.contains("refresh_token=") || text.contains("assertion=") {
      return text.split(separator: "&").map { pair in
        for name in ["refresh_token", "assertion"] where pair.hasPrefix(name + "=") { return "\(name)=\(Redactor.mask)" }
        return String(pair)
      }.joined(separator: "&")
    }
    return text.count > 500 ? String(text.prefix(500)) + "…" : text
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
    default: return json
    }
  }
}
