import AuthCore
import Essentials
import JSONKit

/// GoTrue success bodies → neutral values. Lenient where GoTrue varies (timestamps, optional
/// fields), strict where a session would be unusable.
enum GoTrueDecoding {
  static func user(_ json: JSON, response: HTTPResponse) throws -> AuthUser {
    guard let id = json["id"]?.string, !id.isEmpty else { throw WireBody.missing("user.id", in: response) }
    let metadata = json["user_metadata"]
    let name = metadata?["full_name"]?.string ?? metadata?["name"]?.string ?? metadata?["first_name"]?.string
    // `confirmed_at` is the earlier of the e-mail's and the phone's: the phone's says nothing of an e-mail.
    let confirmedAt =
      json["email_confirmed_at"]?.string
      ?? (json["phone_confirmed_at"]?.string == nil ? json["confirmed_at"]?.string : nil)
    return AuthUser(
      id: id, email: json["email"]?.string ?? "", emailConfirmed: confirmedAt != nil, name: name,
      createdAt: json["created_at"]?.string.map(Timestamps.normalize),
      lastSignInAt: json["last_sign_in_at"]?.string.map(Timestamps.normalize),
      provider: json["app_metadata"]?["provider"]?.string ?? "email", factors: factors(json["factors"]),
      phone: json["phone"]?.string.flatMap { $0.isEmpty ? nil : "+" + $0 })
  }

  /// GoTrue's `factors` (`{id, friendly_name, factor_type, status, created_at}`); absent: none.
  static func factors(_ json: JSON?) -> [AuthFactor] {
    (json?.array ?? []).compactMap { item in
      guard let id = item["id"]?.string else { return nil }
      let kind: AuthFactor.Kind
      switch item["factor_type"]?.string {
      case "totp": kind = .totp
      case "phone": kind = .phone
      default: kind = .other
      }
      return AuthFactor(
        id: id, kind: kind, name: item["friendly_name"]?.string.flatMap { $0.isEmpty ? nil : $0 },
        status: item["status"]?.string == "verified" ? .verified : .unverified,
        createdAt: item["created_at"]?.string.map(Timestamps.normalize))
    }
  }

  static func isSession(_ json: JSON) -> Bool {
    json["access_token"]?.string != nil && json["refresh_token"]?.string != nil
  }

  static func session(_ json: JSON, response: HTTPResponse, now: Int) throws -> AuthSession {
    let reader = WireReader(json: json, response: response)
    let access = try reader.string("access_token")
    let refresh = try reader.string("refresh_token")
    guard let userJSON = json["user"], userJSON.object != nil else { throw WireBody.missing("user", in: response) }
    // Whichever field is there must be a plausible time: an out-of-range expiry is a malformed
    // answer (nothing is saved), not a number to do arithmetic with.
    let expiresAt: Int
    if let raw = json["expires_at"], !raw.isNull {
      guard let at = raw.int, UnixTime.isPlausible(at) else { throw WireBody.missing("expires_at", in: response) }
      expiresAt = at
    } else if let raw = json["expires_in"], !raw.isNull {
      guard let at = raw.intOrNumericString.flatMap({ UnixTime.adding($0, to: now) }) else {
        throw WireBody.missing("expires_in", in: response)
      }
      expiresAt = at
    } else if let exp = JWTClaims.decode(access)?["exp"] {
      guard let at = exp.int, UnixTime.isPlausible(at) else { throw WireBody.missing("access_token exp", in: response) }
      expiresAt = at
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
package enum Timestamps {
  package static func normalize(_ text: String) -> String {
    if let millis = Int(text), text.count >= 12 {
      // Beyond year 9999 (or before 1970) it is not a time a backend means: keep the text.
      guard UnixTime.isPlausible(millis / 1000) else { return text }
      return format(Double(millis) / 1000)
    }
    if let date = parse(text) { return format(date.timeIntervalSince1970) }
    return text
  }

  /// RFC 3339 (`2024-01-01T12:00:00.123456Z`, `…+02:00`), read by `UnixTime.parseISO`.
  static func parse(_ text: String) -> Date? {
    UnixTime.parseISO(text).map { Date(timeIntervalSince1970: TimeInterval($0)) }
  }

  /// `2024-01-01T12:00:00Z` (whole seconds, UTC), as `ISO8601DateFormatter` prints.
  static func format(_ seconds: Double) -> String {
    // Millisecond precision first, as Foundation's formatter rounds.
    let scaled = (seconds * 1000).rounded()
    guard scaled.isFinite, abs(scaled) < 1e17 else { return String(seconds) }
    let millis = Int(scaled)
    let whole = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
    return CivilTime.iso8601(seconds: whole)
  }
}
