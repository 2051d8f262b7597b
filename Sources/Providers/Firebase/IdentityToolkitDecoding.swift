import AuthCore
import JSONKit

enum IdentityToolkitDecoding {
  /// A session from `signUp`/`signInWithPassword`/`update` (`idToken`, `refreshToken`, string `expiresIn`)
  /// or securetoken (`id_token`, `refresh_token`, `expires_in`). The user comes from the ID token's
  /// claims (no extra call), merged over `previous`.
  static func session(_ json: JSON, response: HTTPResponse, now: Int, previous: AuthUser? = nil) throws -> AuthSession {
    guard let idToken = json["idToken"]?.string ?? json["id_token"]?.string else {
      throw WireBody.missing("idToken", in: response)
    }
    guard let refresh = json["refreshToken"]?.string ?? json["refresh_token"]?.string else {
      throw WireBody.missing("refreshToken", in: response)
    }
    // The token's `exp` wins; without one, `expiresIn`. Either must give a plausible time: an
    // out-of-range value is a malformed answer (nothing is saved), not a number to add.
    let claims = JWTClaims.decode(idToken)
    let expiresAt: Int
    if let exp = claims?["exp"], !exp.isNull {
      guard let at = exp.int, UnixTime.isPlausible(at) else { throw WireBody.missing("idToken exp", in: response) }
      expiresAt = at
    } else {
      let expiresIn = (json["expiresIn"] ?? json["expires_in"])?.intOrNumericString
      guard let at = expiresIn.flatMap({ UnixTime.adding($0, to: now) }) else {
        throw WireBody.missing("expiresIn", in: response)
      }
      expiresAt = at
    }
    let localId =
      json["localId"]?.string ?? json["user_id"]?.string ?? claims?["user_id"]?.string ?? claims?["sub"]?.string
    guard let localId else { throw WireBody.missing("localId", in: response) }
    var user = previous ?? AuthUser(id: localId, email: "", emailConfirmed: false, provider: "password")
    user.id = localId
    user.email = json["email"]?.string ?? claims?["email"]?.string ?? user.email
    user.emailConfirmed = claims?["email_verified"]?.bool ?? user.emailConfirmed
    if let name = json["displayName"]?.string ?? claims?["name"]?.string, !name.isEmpty { user.name = name }
    if let provider = claims?["firebase"]?["sign_in_provider"]?.string { user.provider = provider }
    if let phone = json["phoneNumber"]?.string ?? claims?["phone_number"]?.string { user.phone = phone }
    return AuthSession(
      accessToken: idToken, refreshToken: refresh, expiresAt: expiresAt, tokenType: "bearer", user: user)
  }

  /// One record of `accounts:lookup`.
  static func user(_ json: JSON, response: HTTPResponse) throws -> AuthUser {
    guard let id = json["localId"]?.string, !id.isEmpty else {
      throw WireBody.missing("users[0].localId", in: response)
    }
    let provider = json["providerUserInfo"]?[0]?["providerId"]?.string ?? "password"
    return AuthUser(
      id: id, email: json["email"]?.string ?? "", emailConfirmed: json["emailVerified"]?.bool ?? false,
      name: json["displayName"]?.string.flatMap { $0.isEmpty ? nil : $0 },
      createdAt: json["createdAt"].flatMap(millis), lastSignInAt: json["lastLoginAt"].flatMap(millis),
      provider: provider,
      factors: factors(json["mfaInfo"]), phone: json["phoneNumber"]?.string)
  }

  /// `mfaInfo[]` (`{mfaEnrollmentId, displayName, enrolledAt, totpInfo | phoneInfo}`): always verified.
  static func factors(_ json: JSON?) -> [AuthFactor] {
    (json?.array ?? []).compactMap { item in
      guard let id = item["mfaEnrollmentId"]?.string else { return nil }
      let kind: AuthFactor.Kind = item["totpInfo"] != nil ? .totp : item["phoneInfo"] != nil ? .phone : .other
      return AuthFactor(
        id: id, kind: kind, name: item["displayName"]?.string.flatMap { $0.isEmpty ? nil : $0 }, status: .verified,
        createdAt: item["enrolledAt"]?.string.map(Timestamps.normalize))
    }
  }

  /// `"1767225600000"` (ms, as a string or number) → ISO 8601.
  static func millis(_ value: JSON) -> String? {
    guard let ms = value.intOrNumericString else { return value.string }
    return Timestamps.normalize(String(ms))
  }
}
