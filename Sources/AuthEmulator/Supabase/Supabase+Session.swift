import Essentials
import HTTPServerKit
import JSONKit

/// Sessions, refresh tokens and access tokens (`tokens/service.go`).
extension SupabaseAPI {
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

  // MARK: - POST /token

  func token(_ request: ServerRequest) throws -> ServerResponse {
    switch request.query("grant_type") {
    case "password": return try passwordGrant(request)
    case "refresh_token": return try refreshTokenGrant(request)
    case "pkce": return try pkceGrant(request)
    default: throw GoTrueError.badRequest("invalid_credentials", "unsupported_grant_type")
    }
  }

  /// `ResourceOwnerPasswordGrant`: banned before the password check, `email_not_confirmed` only
  /// after a correct password; the hash check (bcrypt, Firebase scrypt) runs outside the lock.
  func passwordGrant(_ request: ServerRequest) throws -> ServerResponse {
    let params = try RequestParams(request)
    let email = try params.string("email")
    let phone = try params.string("phone")
    let password = try params.string("password")
    if !email.isEmpty && !phone.isEmpty {
      throw GoTrueError.validation("Only an email address or phone number should be provided on login.")
    }
    if email.isEmpty && phone.isEmpty { throw GoTrueError.validation("missing email or phone") }
    // SSO users are never found by a password sign-in (`is_sso_user = false` in the lookup); a
    // phone is looked up as `formatPhoneNumber` leaves it (no `+`, no spaces, not validated).
    let number = phone.hasPrefix("+") ? String(phone.dropFirst()) : phone
    let found = state.read { data in
      email.isEmpty ? data.user(phone: number.replacingAll(" ", with: "")) : data.user(email: email.lowercased())
    }
    guard let user = found, !user.isSSOUser, let hash = user.passwordHash else { throw GoTrueError.invalidCredentials }
    if user.isBanned(at: now) { throw GoTrueError.badRequest("user_banned", "User is banned") }
    switch StoredPasswordHash.check(password, against: hash) {
    case .match: break
    case .mismatch: throw GoTrueError.invalidCredentials
    case .unverifiable: throw GoTrueError.argon2Unverifiable
    case .failed: throw GoTrueError.internal("Internal Server Error")
    }
    if email.isEmpty {
      if user.phoneConfirmedAt == nil { throw GoTrueError.badRequest("phone_not_confirmed", "Phone not confirmed") }
    } else if !user.isConfirmed {
      throw GoTrueError.badRequest("email_not_confirmed", "Email not confirmed")
    }
    let now = self.now
    guard
      let started = try state.transaction({ data in
        data.recordAudit("login", user: user, traits: ["provider": .string(email.isEmpty ? "phone" : "email")], at: now)
        return startSession(userID: user.id, method: "password", in: &data, now: now)
      })
    else { throw GoTrueError.invalidCredentials }
    return json(
      bytes: sessionBody(
        user: started.user, session: started.session, refreshToken: started.refreshToken, request: request, now: now,
        weakPassword: GoTrueRules.weakPasswordJSON(password)))
  }

  /// `RefreshTokenGrant` with rotation and reuse detection (GoTrue `tokens/service.go`: a used
  /// token within the reuse interval gives the current one; after it, the whole family is revoked).
  func refreshTokenGrant(_ request: ServerRequest) throws -> ServerResponse {
    let params = try RequestParams(request)
    let presented = try params.string("refresh_token")
    let legacyShape =
      presented.utf8.count == 12
      && presented.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
    guard legacyShape else { throw GoTrueError.validation("Refresh token is not valid") }
    let now = self.now
    let reuseInterval = Micros(refreshReuseInterval) * 1_000_000
    let (user, session, issued) = try state.transaction { data -> (SBUser, SBSession, String) in
      guard let token = data.refreshTokens[presented] else {
        throw GoTrueError.badRequest("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found")
      }
      guard let user = data.users[token.userID] else {
        throw GoTrueError.badRequest("refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found")
      }
      if user.isBanned(at: now) { throw GoTrueError.badRequest("user_banned", "Invalid Refresh Token: User Banned") }
      guard var session = data.sessions[token.sessionID] else {
        throw GoTrueError.badRequest("session_not_found", "Invalid Refresh Token: No Valid Session Found")
      }
      if let expired = expiryError(of: session, now: now) { throw expired }
      let alreadyUsed = GoTrueError.badRequest("refresh_token_already_used", "Invalid Refresh Token: Already Used")
      if session.familyRevoked { throw alreadyUsed }
      if token.revoked {
        if let active = data.activeRefreshToken(ofSession: session.id), active.parent == token.token {
          data.recordAudit("token_refreshed", user: user, at: now)
          return (user, session, active.token)  // the client lost the answer to its last refresh
        }
        if now > token.updatedAt + reuseInterval {
          session.familyRevoked = true
          session.updatedAt = now
          data.saveSession(session)
          for var sibling in data.refreshTokens(ofSession: session.id) where !sibling.revoked {
            sibling.revoked = true
            sibling.updatedAt = now
            data.saveRefreshToken(sibling)
          }
          throw alreadyUsed
        }
      }
      data.recordAudit("token_refreshed", user: user, at: now)
      data.recordAudit("token_revoked", user: user, at: now)
      if !token.revoked {  // a reused token keeps its first revocation time
        var parent = token
        parent.revoked = true
        parent.updatedAt = now
        data.saveRefreshToken(parent)
      }
      let child = SBRefreshToken(
        token: EmulatorRandom.refreshToken(), sessionID: session.id, userID: user.id, parent: token.token,
        createdAt: now, updatedAt: now, sequence: data.takeSequence())
      data.saveRefreshToken(child)
      data.pruneRefreshTokens(ofSession: session.id, keep: Self.refreshTokensKeptPerSession)
      session.updatedAt = now
      session.refreshedAt = now
      SBClient.current?.note(on: &session)
      data.saveSession(session)
      return (user, session, child.token)
    }
    return json(bytes: sessionBody(user: user, session: session, refreshToken: issued, request: request, now: now))
  }
}

/// Who sent the request being served: GoTrue records its `User-Agent` and address
/// (`utilities.GetIPAddress`) on a session when it starts and at each refresh. Bound around every
/// route's handler (`SupabaseAPI.serve`); nil outside a request.
struct SBClient: Sendable {
  var userAgent: String
  var ip: String

  @TaskLocal static var current: SBClient?

  func note(on session: inout SBSession) {
    session.userAgent = userAgent
    session.ip = ip
  }
}
