import Essentials
import HTTPServerKit
import JSONKit

/// `POST /token` (`token.go`: the password, refresh-token and PKCE grants) and `POST /logout`
/// (`logout.go`): sessions begin, rotate and end here.
struct SupabaseTokenRoutes: Sendable {
  let context: GoTrueContext

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
    let found = context.state.read { data in
      email.isEmpty ? data.user(phone: number.replacingAll(" ", with: "")) : data.user(email: email.lowercased())
    }
    guard let user = found, !user.isSSOUser, let hash = user.passwordHash else { throw GoTrueError.invalidCredentials }
    if user.isBanned(at: context.now) { throw GoTrueError.badRequest("user_banned", "User is banned") }
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
    let now = context.now
    guard
      let started = try context.state.transaction({ data in
        data.recordAudit("login", user: user, traits: ["provider": .string(email.isEmpty ? "phone" : "email")], at: now)
        return context.startSession(userID: user.id, method: "password", in: &data, now: now)
      })
    else { throw GoTrueError.invalidCredentials }
    return context.json(
      bytes: context.sessionBody(
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
    let now = context.now
    let reuseInterval = Micros(context.refreshReuseInterval) * 1_000_000
    let (user, session, issued) = try context.state.transaction { data -> (SBUser, SBSession, String) in
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
      if let expired = context.expiryError(of: session, now: now) { throw expired }
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
      data.pruneRefreshTokens(ofSession: session.id, keep: GoTrueContext.refreshTokensKeptPerSession)
      session.updatedAt = now
      session.refreshedAt = now
      SBClient.current?.note(on: &session)
      data.saveSession(session)
      return (user, session, child.token)
    }
    return context.json(
      bytes: context.sessionBody(user: user, session: session, refreshToken: issued, request: request, now: now))
  }

  /// `POST /token?grant_type=pkce` `{auth_code, code_verifier}`: one exchange per code (the flow
  /// state is deleted with it, so a second one finds none).
  func pkceGrant(_ request: ServerRequest) throws -> ServerResponse {
    let params = try RequestParams(request)
    let authCode = try params.string("auth_code")
    let verifier = try params.string("code_verifier")
    if authCode.isEmpty || verifier.isEmpty {
      throw GoTrueError.validation("invalid request: both auth code and code verifier should be non-empty")
    }
    let now = context.now
    let started = try context.state.transaction { data -> (user: SBUser, session: SBSession, refreshToken: String) in
      guard let id = data.flowStateIDByAuthCode[authCode], let flow = data.flowStates[id],
        data.users[flow.userID] != nil
      else {
        throw GoTrueError.notFound("flow_state_not_found", "invalid flow state, no valid flow state found")
      }
      if flow.isExpired(at: now) {
        throw GoTrueError.unprocessable("flow_state_expired", "invalid flow state, flow state has expired")
      }
      if let mismatch = flow.verify(verifier) { throw GoTrueError.badRequest("bad_code_verifier", mismatch) }
      guard let user = data.users[flow.userID],
        let started = context.startSession(userID: user.id, method: flow.authenticationMethod, in: &data, now: now)
      else { throw GoTrueError.internal("Database error finding user") }
      data.recordAudit("login", user: user, traits: ["provider_type": .string(flow.providerType)], at: now)
      data.deleteFlowState(id: flow.id)
      return started
    }
    return context.json(
      bytes: context.sessionBody(
        user: started.user, session: started.session, refreshToken: started.refreshToken, request: request, now: now))
  }

  // MARK: - POST /logout

  func logout(_ request: ServerRequest) throws -> ServerResponse {
    let caller = try context.authenticate(request)
    // No scope, or an empty one, means global (GoTrue reads `scope=` as unset).
    let scope = request.query("scope").flatMap { $0.isEmpty ? nil : $0 } ?? "global"
    guard ["global", "local", "others"].contains(scope) else {
      throw GoTrueError.validation("Unsupported logout scope \"\(scope)\"")
    }
    let now = context.now
    try context.state.transaction { data in
      data.recordAudit("logout", user: caller.user, at: now)
      switch scope {
      case "local":
        if let sessionID = caller.sessionID { data.deleteSession(id: sessionID) }
      case "others":
        for session in data.sessions(ofUser: caller.user.id) where session.id != caller.sessionID {
          data.deleteSession(id: session.id)
        }
      default:
        for session in data.sessions(ofUser: caller.user.id) { data.deleteSession(id: session.id) }
      }
    }
    return ServerResponse(status: 204)
  }
}
