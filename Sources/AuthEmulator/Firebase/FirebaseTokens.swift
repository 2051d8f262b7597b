import Essentials
import JSONKit

/// ID tokens (`alg: none`, as the official emulator mints them) and its stateless refresh tokens.
enum FirebaseTokens {
  static let anonymousProvider = "anonymous"
  static let passwordProvider = "password"

  /// The claims of `operations.ts` `generateJwt`: profile, custom claims, reserved claims, then
  /// `iat`/`exp`/`aud`/`iss`/`sub`.
  static func idTokenClaims(
    for user: FirebaseUser, projectId: String, provider: String, now: Date,
    lifetime: Int, extraClaims: JSONObject = JSONObject(),
    secondFactor: FirebaseSecondFactor? = nil, tenantId: String? = nil
  ) -> JSONObject {
    var identities = JSONObject()
    if let email = user.email { identities["email"] = [.string(email)] }
    for info in user.federated {
      identities[info.providerId] = .array((identities[info.providerId]?.array ?? []) + [.string(info.rawId)])
    }
    if let phone = user.phoneNumber { identities["phone"] = [.string(phone)] }

    var claims = JSONObject()
    if let name = user.displayName { claims["name"] = .string(name) }
    if let picture = user.photoUrl { claims["picture"] = .string(picture) }
    for (key, value) in customClaims(user).pairs { claims[key] = value }
    for (key, value) in extraClaims.pairs { claims[key] = value }
    claims["email"] = user.email.map(JSON.string)
    claims["email_verified"] = user.emailVerified.map(JSON.bool)
    claims["phone_number"] = user.phoneNumber.map(JSON.string)
    claims["provider_id"] = provider == anonymousProvider ? .string(provider) : nil
    claims["auth_time"] = .int(authTime(user, now: now))
    claims["user_id"] = .string(user.localId)
    var firebase = JSONObject([("identities", .object(identities)), ("sign_in_provider", .string(provider))])
    if let secondFactor {
      firebase["second_factor_identifier"] = .string(secondFactor.identifier)
      firebase["sign_in_second_factor"] = .string(secondFactor.provider)
    }
    if let tenantId { firebase["tenant"] = .string(tenantId) }
    claims["firebase"] = .object(firebase)
    let issuedAt = FirebaseTime.seconds(now)
    claims["iat"] = .int(issuedAt)
    claims["exp"] = .int(issuedAt + lifetime)
    claims["aud"] = .string(projectId)
    claims["iss"] = .string("https://securetoken.google.com/" + projectId)
    claims["sub"] = .string(user.localId)
    return claims
  }

  static func customClaims(_ user: FirebaseUser) -> JSONObject {
    guard let text = user.customAttributes, let parsed = try? JSON.parse(text), let object = parsed.object else {
      return JSONObject()
    }
    return object
  }

  /// Seconds: the last sign-in, else the last refresh.
  static func authTime(_ user: FirebaseUser, now: Date) -> Int {
    if let lastLoginAt = user.lastLoginAt { return lastLoginAt / 1000 }
    if let lastRefreshAt = user.lastRefreshAt { return FirebaseTime.seconds(lastRefreshAt) }
    return FirebaseTime.seconds(now)
  }

  // MARK: - Refresh tokens (standard base64 of a JSON record, as `state.ts` encodes them)

  struct RefreshRecord: Equatable {
    var localId: String
    var provider: String
    var projectId: String
    var extraClaims: JSONObject
    /// When the token was minted, milliseconds (nil in tokens of the official emulator).
    var issuedAtMs: Int? = nil
    /// The second factor of the sign-in; refreshed ID tokens keep its claims.
    var secondFactor: FirebaseSecondFactor? = nil
    /// The tenant whose account it is.
    var tenantId: String? = nil
  }

  static func refreshToken(
    localId: String, provider: String, projectId: String, issuedAtMs: Int? = nil,
    extraClaims: JSONObject = JSONObject(), secondFactor: FirebaseSecondFactor? = nil, tenantId: String? = nil
  ) -> String {
    var record = JSONObject()
    record["_AuthEmulatorRefreshToken"] = "DO NOT MODIFY"
    record["localId"] = .string(localId)
    record["provider"] = .string(provider)
    // A custom token's developer claims: every refreshed ID token keeps them.
    record["extraClaims"] = .object(extraClaims)
    record["projectId"] = .string(projectId)
    if let secondFactor {
      record["secondFactor"] = [
        "identifier": .string(secondFactor.identifier), "provider": .string(secondFactor.provider),
      ]
    }
    if let issuedAtMs { record["issuedAtMs"] = .int(issuedAtMs) }
    if let tenantId { record["tenantId"] = .string(tenantId) }
    return Base64.encode(JSON.object(record).bytes)
  }

  /// Decodes leniently, like Node's `Buffer.from(text, "base64")`; `INVALID_REFRESH_TOKEN` otherwise.
  static func decodeRefreshToken(_ token: String) throws -> RefreshRecord {
    var text = token.replacingAll("-", with: "+").replacingAll("_", with: "/")
    text = String(text.filter { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || $0 == "+" || $0 == "/" })
    while text.count % 4 != 0 { text += "=" }
    guard let data = Base64.decode(text), let record = try? JSON.parse(bytes: Array(data)),
      case .object(let object) = record, isTruthy(object["_AuthEmulatorRefreshToken"]),
      let localId = object["localId"]?.string, let provider = object["provider"]?.string
    else { throw FirebaseError.bad("INVALID_REFRESH_TOKEN") }
    return RefreshRecord(
      localId: localId, provider: provider, projectId: object["projectId"]?.string ?? "",
      extraClaims: object["extraClaims"]?.object ?? JSONObject(),
      issuedAtMs: object["issuedAtMs"]?.int,
      secondFactor: FirebaseSecondFactor(json: object["secondFactor"]),
      tenantId: object["tenantId"]?.string.flatMap { $0.isEmpty ? nil : $0 })
  }

  private static func isTruthy(_ value: JSON?) -> Bool {
    switch value {
    case nil, .null?, .bool(false)?: return false
    case .string(let text)?: return !text.isEmpty
    case .int(0)?: return false
    default: return true
    }
  }

  // MARK: - Decoding ID tokens (no signature or expiry check, as the emulator)

  struct DecodedIdToken {
    var payload: JSONObject
    var userId: String
    var issuedAt: Int
    var provider: String
  }

  /// nil when the text is not a decodable JWT with Firebase claims.
  static func decodeIdToken(_ token: String) -> DecodedIdToken? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let headerBytes = Base64URL.decode(String(parts[0])),
      case .object? = try? JSON.parse(bytes: headerBytes),
      let payload = EmulatorJWT.decodePayload(token)?.object,
      let firebase = payload["firebase"]?.object
    else { return nil }
    // No `user_id`: decodable, but no account matches (USER_NOT_FOUND), as in the official emulator.
    return DecodedIdToken(
      payload: payload, userId: payload["user_id"]?.string ?? "", issuedAt: payload["iat"]?.int ?? 0,
      provider: firebase["sign_in_provider"]?.string ?? passwordProvider)
  }
}

/// `SecondFactorRecord`: which enrolment completed the sign-in, and its kind (`totp`, `phone`).
struct FirebaseSecondFactor: Equatable, Sendable {
  var identifier: String
  var provider: String

  init(identifier: String, provider: String) {
    self.identifier = identifier
    self.provider = provider
  }

  init?(json: JSON?) {
    guard let identifier = json?["identifier"]?.string, let provider = json?["provider"]?.string else { return nil }
    self.init(identifier: identifier, provider: provider)
  }
}
