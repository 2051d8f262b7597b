import Essentials
import HTTPServerKit
import JSONKit

/// Sessions, refresh tokens and access tokens (`tokens/service.go`).
extension GoTrueContext {
  /// A fresh session with its first refresh token; updates `last_sign_in_at`. Call inside a
  /// transaction. Returns the updated user.
  func startSession(userID: String, method: String, in data: inout SupabaseData, now: Micros)
    -> (user: SBUser, session: SBSession, refreshToken: String)?
  {
    guard var user = data.users[userID] else { return nil }
    pruneSessions(beforeStartingFor: userID, in: &data, now: now)
    var session = SBSession(
      id: EmulatorRandom.uuid(), userID: userID, createdAt: now, updatedAt: now,
      amr: [SBAuthMethod(method: method, timestamp: Int(now / 1_000_000))])
    SBClient.current?.note(on: &session)
    data.saveSession(session)
    let token = SBRefreshToken(
      token: EmulatorRandom.refreshToken(), sessionID: session.id, userID: userID, parent: nil, createdAt: now,
      updatedAt: now, sequence: data.takeSequence())
    data.saveRefreshToken(token)
    user.lastSignInAt = now
    user.identity?.lastSignInAt = now
    user.updatedAt = now
    data.saveUser(user)
    return (user, session, token.token)
  }

  /// The HS256 access token (claims in GoTrue's order) and its `exp`.
  func accessToken(user: SBUser, session: SBSession, issuer: String, now: Micros) -> (token: String, expiresAt: Int) {
    let issuedAt = Int(now / 1_000_000)
    let expiresAt = issuedAt + config.tokenLifetime
    var claims = JSONObject()
    claims["iss"] = .string(issuer)
    claims["sub"] = .string(user.id)
    claims["aud"] = .string(user.aud)
    claims["exp"] = .int(expiresAt)
    claims["iat"] = .int(issuedAt)
    claims["email"] = .string(user.email)
    claims["phone"] = .string(user.phone)
    claims["app_metadata"] = .object(user.appMetadata)
    claims["user_metadata"] = .object(user.userMetadata)
    claims["role"] = .string(user.role)
    claims["aal"] = .string(session.computedAAL)
    claims["amr"] = session.amrClaim
    claims["session_id"] = .string(session.id)
    claims["is_anonymous"] = .bool(user.isAnonymous)
    return (EmulatorJWT.signHS256(.object(claims), secret: config.jwtSecret), expiresAt)
  }

  /// `AccessTokenResponse`; `weakPassword` only for the password grant (where null is sent).
  func sessionBody(
    user: SBUser, session: SBSession, refreshToken: String, request: ServerRequest, now: Micros,
    weakPassword: JSON? = nil
  ) -> [UInt8] {
    let (token, expiresAt) = accessToken(user: user, session: session, issuer: issuer(for: request), now: now)
    var text = #"{"access_token":"# + JSON.string(token).compactText
    text += #","token_type":"bearer","expires_in":"# + String(expiresAt - Int(now / 1_000_000))
    text += #","expires_at":"# + String(expiresAt)
    text += #","refresh_token":"# + JSON.string(refreshToken).compactText + #","user":"#
    var bytes = Array(text.utf8)
    bytes += JSON.object(user.wireObject()).bytes
    if let weakPassword { bytes += Array((#","weak_password":"# + weakPassword.compactText).utf8) }
    bytes.append(UInt8(ascii: "}"))
    return bytes
  }
}

/// Who sent the request being served: GoTrue records its `User-Agent` and address
/// (`utilities.GetIPAddress`) on a session when it starts and at each refresh. Bound around every
/// route's handler (`SupabaseAPI`'s `serve`); nil outside a request.
struct SBClient: Sendable {
  var userAgent: String
  var ip: String

  @TaskLocal static var current: SBClient?

  func note(on session: inout SBSession) {
    session.userAgent = userAgent
    session.ip = ip
  }
}
