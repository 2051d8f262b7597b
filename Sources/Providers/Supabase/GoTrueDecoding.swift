import AuthCore
import Foundation
import JSONKit

/// GoTrue success bodies → neutral values. Lenient where GoTrue varies (timestamps, optional
/// fields), strict where a session would be unusable.
enum GoTrueDecoding {
  static func user(_ json: JSON, response: HTTPResponse) throws -> AuthUser {
    guard let id = json["id"]?.string, !id.isEmpty else { throw WireBody.missing("user.id", in: response) }
    let metadata = json["user_metadata"]
    let name = metadata?["full_name"]?.string ?? metadata?["name"]?.string ?? metadata?["first_name"]?.string
    let confirmedAt = json["email_confirmed_at"]?.string ?? json["confirmed_at"]?.string
    return AuthUser(
      id: id, email: json["email"]?.string ?? "", emailConfirmed: confirmedAt != nil, name: name,
      createdAt: json["created_at"]?.string.map(Timestamps.normalize),
      lastSignInAt: json["last_sign_in_at"]?.string.map(Timestamps.normalize),
      provider: json["app_metadata"]?["provider"]?.string ?? "email")
  }

  static func isSession(_ json: JSON) -> Bool {
    json["access_token"]?.string != nil && json["refresh_token"]?.string != nil
  }

  static func session(_ json: JSON, response: HTTPResponse, now: Int) throws -> AuthSession {
    let reader = WireReader(json: json, response: response)
    let access = try reader.string("access_token")
    let refresh = try reader.string("refresh_token")
    guard let userJSON = json["user"], userJSON.object != nil else { throw WireBody.missing("user", in: response) }
    let expiresAt: Int
    if let at = json["expires_at"]?.int {
      expiresAt = at
    } else if let expiresIn = json["expires_in"]?.intOrNumericString {
      expiresAt = now + expiresIn
    } else if let exp = JWTClaims.expiry(access) {
      expiresAt = exp
    } else {
      throw WireBody.missing("expires_in", in: response)
    }
    return AuthSession(
      accessToken: access, refreshToken: refresh, expiresAt: expiresAt,
      tokenType: json["token_type"]?.string ?? "bearer", user: try user(userJSON, response: response))
  }
}

/// Timestamps as ISO 8601 UTC, whatever the backend sent (RFC 3339 with any number of fraction
/// digits, or Unix milliseconds as a string).
public enum Timestamps {
  public static func normalize(_ text: String) -> String {
    if let millis = Int(text), text.count >= 12 { return format(Double(millis) / 1000) }
    if let date = parse(text) { return format(date.timeIntervalSince1970) }
    return text
  }

  static func parse(_ text: String) -> Date? {
    // Drop fractional seconds (GoTrue trims trailing zeros, so their width varies).
    var trimmed = text
    if let dot = trimmed.firstIndex(of: ".") {
      let rest = trimmed[dot...].drop { $0 == "." || $0.isNumber }
      trimmed = String(trimmed[..<dot]) + rest
    }
    let formatter = ISO8601DateFormatter()
    return formatter.date(from: trimmed)
  }

  static func format(_ seconds: Double) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date(timeIntervalSince1970: seconds))
  }
}
