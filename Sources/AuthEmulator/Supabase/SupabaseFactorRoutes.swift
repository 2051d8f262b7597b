import Essentials
import HTTPServerKit
import JSONKit
import OneTimeCode

/// `/factors` (`mfa.go`): TOTP enrolment, challenge, verification (an aal2 session) and unenrolment.
struct SupabaseFactorRoutes: Sendable {
  /// `MFA_CHALLENGE_EXPIRY_DURATION` and `MFA_FACTOR_EXPIRY_DURATION` (both 300 s by default).
  static let challengeLifetime: Micros = 300 * 1_000_000
  static let unverifiedFactorLifetime: Micros = 300 * 1_000_000
  /// `MFA_MAX_ENROLLED_FACTORS`, `MFA_MAX_VERIFIED_FACTORS`.
  static let maxFactors = 10

  let context: GoTrueContext

  /// `requireAuthentication` + `requireNotAnonymous` + a session (every `/factors` route).
  func factorCaller(_ request: ServerRequest) throws -> (caller: GoTrueContext.Caller, sessionID: String) {
    let caller = try context.authenticate(request)
    if caller.isAnonymous {
      throw GoTrueError.forbidden("no_authorization", "Anonymous user not allowed to perform these actions")
    }
    guard let sessionID = caller.sessionID, !sessionID.isEmpty else {
      throw GoTrueError.internal("A valid session and a registered user are required to enroll a factor")
    }
    return (caller, sessionID)
  }

  /// `loadFactor`: 404 `validation_failed` for a non-UUID, 404 `mfa_factor_not_found` for a factor
  /// the user does not own.
  static func factorID(_ segment: GoTrueIDSegment, of user: SBUser) throws -> String {
    let id = try segment.uuid()
    guard user.factors.contains(where: { $0.id == id }) else {
      throw GoTrueError.notFound("mfa_factor_not_found", "Factor not found")
    }
    return id
  }

  // MARK: - POST /factors

  func enrollFactor(_ request: ServerRequest) throws -> ServerResponse {
    let (caller, sessionID) = try factorCaller(request)
    let params = try RequestParams(request)
    let factorType = try params.string("factor_type")
    let friendlyName = try params.string("friendly_name")
    var issuer = try params.string("issuer")
    switch factorType {
    case "totp": break
    case "phone": throw GoTrueError.unprocessable("mfa_phone_enroll_not_enabled", "MFA enroll is disabled for Phone")
    case "webauthn":
      throw GoTrueError.unprocessable("mfa_webauthn_enroll_not_enabled", "MFA enroll is disabled for WebAuthn")
    default: throw GoTrueError.validation("factor_type needs to be totp, phone, or webauthn")
    }
    if issuer.isEmpty {
      guard let host = URLComponents(string: context.config.siteURL)?.host else {
        throw GoTrueError.internal("site url is improperly formatted")
      }
      let port = URLComponents(string: context.config.siteURL)?.port.map { ":\($0)" } ?? ""
      issuer = host + port
    }
    let secret = TOTP.newSecret()
    let uri = Self.otpauthURI(issuer: issuer, account: caller.user.email, secret: secret)
    guard let svg = QRCodeSVG.svg(uri) else { throw GoTrueError.internal("Error generating QR Code") }
    let now = context.now
    let ip = context.clientIP(request)
    let factor = try context.state.transaction { data -> SBFactor in
      guard var user = data.users[caller.user.id] else {
        throw GoTrueError.forbidden("user_not_found", "User from sub claim in JWT does not exist")
      }
      // `DeleteExpiredFactors`: unverified factors older than the factor lifetime go first, but only
      // those never challenged (a challenged one stays, keeps its name and counts towards the limit).
      user.factors.removeAll {
        !$0.isVerified && $0.challenges.isEmpty && $0.createdAt < now - Self.unverifiedFactorLifetime
      }
      if user.factors.contains(where: { $0.friendlyName == friendlyName }) {
        throw GoTrueError.unprocessable(
          "mfa_factor_name_conflict",
          "A factor with the friendly name \(JSON.string(friendlyName).compactText) for this user already exists")
      }
      let verified = user.factors.filter(\.isVerified).count
      if user.factors.count >= Self.maxFactors || verified >= Self.maxFactors {
        throw GoTrueError.unprocessable(
          "too_many_enrolled_mfa_factors", "Maximum number of verified factors reached, unenroll to continue")
      }
      if verified > 0, data.sessions[sessionID]?.aal != "aal2" {
        throw GoTrueError.forbidden("insufficient_aal", "AAL2 required to enroll a new factor")
      }
      let factor = SBFactor(
        id: EmulatorRandom.uuid(), friendlyName: friendlyName, status: SBFactor.unverified,
        secret: secret, createdAt: now)
      user.factors.append(factor)
      data.saveUser(user)
      data.recordAudit("factor_in_progress", user: user, ip: ip, traits: ["factor_id": .string(factor.id)], at: now)
      return factor
    }
    var body = JSONObject()
    body["id"] = .string(factor.id)
    body["type"] = "totp"
    body["friendly_name"] = .string(factor.friendlyName)
    body["totp"] = ["qr_code": .string(svg), "secret": .string(secret), "uri": .string(uri)]
    return context.json(.object(body))
  }

  /// pquerna/otp v1.4 `key.URL()`: `otpauth://totp/ISSUER:ACCOUNT?algorithm=SHA1&digits=6&issuer=…&period=30&secret=…`
  /// (the label path-escaped, the query as Go's `url.Values.Encode`).
  static func otpauthURI(issuer: String, account: String, secret: String) -> String {
    // pquerna/otp's EncodeQuery: url.Values.Encode with url.PathEscape for keys and values, so a
    // space is %20 (`issuer=My%20App`), which authenticator apps read; `+` would show literally.
    let pairs = [("algorithm", "SHA1"), ("digits", "6"), ("issuer", issuer), ("period", "30"), ("secret", secret)]
    let query = pairs.map { goPathEscape($0.0, segment: true) + "=" + goPathEscape($0.1, segment: true) }.joined(
      separator: "&")
    return "otpauth://totp/" + goPathEscape(issuer + ":" + account) + "?" + query
  }

  /// Go's path escaping: `URL.EscapedPath` (`encodePath`) keeps `$&+,/:;=@` and the unreserved;
  /// `url.PathEscape` (`encodePathSegment`, `segment`) escapes `/`, `;` and `,` too.
  static func goPathEscape(_ text: String, segment: Bool = false) -> String {
    var out = ""
    let kept = segment ? "-_.~$&+:=@" : "-_.~$&+,/:;=@"
    for byte in text.utf8 {
      let scalar = Unicode.Scalar(byte)
      if (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte)
        || kept.unicodeScalars.contains(scalar)
      {
        out.unicodeScalars.append(scalar)
      } else {
        let hex = String(byte, radix: 16, uppercase: true)
        out += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return out
  }

  // MARK: - POST /factors/{id}/challenge

  func challengeFactor(_ request: ServerRequest, _ path: FactorIDPath) throws -> ServerResponse {
    let (caller, _) = try factorCaller(request)
    let factorID = try Self.factorID(path.factorID, of: caller.user)
    let now = context.now
    let ip = context.clientIP(request)
    let challenge = try context.state.transaction { data -> SBChallenge in
      guard var user = data.users[caller.user.id], let index = user.factors.firstIndex(where: { $0.id == factorID })
      else {
        throw GoTrueError.notFound("mfa_factor_not_found", "Factor not found")
      }
      let challenge = SBChallenge(id: EmulatorRandom.uuid(), createdAt: now, ipAddress: ip)
      user.factors[index].challenges.removeAll { $0.createdAt + Self.challengeLifetime < now || $0.verifiedAt != nil }
      user.factors[index].challenges.append(challenge)
      user.factors[index].lastChallengedAt = now
      data.saveUser(user)
      data.recordAudit(
        "challenge_created", user: user, ip: ip,
        traits: ["factor_id": .string(factorID), "factor_status": .string(user.factors[index].status)], at: now)
      return challenge
    }
    return context.json([
      "id": .string(challenge.id), "type": "totp",
      "expires_at": .int(Int((challenge.createdAt + Self.challengeLifetime) / 1_000_000)),
    ])
  }

  // MARK: - POST /factors/{id}/verify

  func verifyFactor(_ request: ServerRequest, _ path: FactorIDPath) throws -> ServerResponse {
    let (caller, sessionID) = try factorCaller(request)
    let factorID = try Self.factorID(path.factorID, of: caller.user)
    let params = try RequestParams(request)
    let challengeRaw = try params.string("challenge_id")
    let code = try params.string("code")
    let challengeID = challengeRaw.lowercased()
    guard GoTrueRules.isUUID(challengeID) else {
      throw RequestParams.badJSON(
        "uuid: incorrect UUID length \(challengeRaw.utf8.count) in string \(JSON.string(challengeRaw).compactText)")
    }
    if code.isEmpty { throw GoTrueError.validation("Code needs to be non-empty") }
    let now = context.now
    let time = context.clock.now()
    let ip = context.clientIP(request)
    let (user, session, refreshToken) = try context.state.transaction { data -> (SBUser, SBSession, String) in
      guard var user = data.users[caller.user.id], let index = user.factors.firstIndex(where: { $0.id == factorID })
      else {
        throw GoTrueError.notFound("mfa_factor_not_found", "Factor not found")
      }
      guard let challengeIndex = user.factors[index].challenges.firstIndex(where: { $0.id == challengeID }) else {
        throw GoTrueError.unprocessable("mfa_factor_not_found", "MFA factor with the provided challenge ID not found")
      }
      let challenge = user.factors[index].challenges[challengeIndex]
      if challenge.verifiedAt != nil || challenge.ipAddress != ip {
        throw GoTrueError.unprocessable("mfa_ip_address_mismatch", "Challenge and verify IP addresses mismatch.")
      }
      if now > challenge.createdAt + Self.challengeLifetime {
        user.factors[index].challenges.remove(at: challengeIndex)
        data.saveUser(user)
        throw GoTrueError.unprocessable(
          "mfa_challenge_expired",
          "MFA challenge \(challengeID) has expired, verify against another challenge or create a new challenge.")
      }
      guard TOTP.verify(code, secret: user.factors[index].secret, at: time) else {
        throw GoTrueError.unprocessable("mfa_verification_failed", "Invalid TOTP code entered")
      }
      guard var session = data.sessions[sessionID] else {
        throw GoTrueError.forbidden("session_not_found", "Session from session_id claim in JWT does not exist")
      }
      data.recordAudit(
        "verification_attempted", user: user, ip: ip,
        traits: [
          "factor_id": .string(factorID), "challenge_id": .string(challengeID), "factor_type": "totp",
        ], at: now)
      user.factors[index].challenges[challengeIndex].verifiedAt = now
      if !user.factors[index].isVerified {
        user.factors[index].status = SBFactor.verified
        user.factors[index].updatedAt = now
      }
      // `DeleteUnverifiedFactors` of this type, once one is verified.
      user.factors.removeAll { !$0.isVerified && $0.factorType == "totp" }
      user.updatedAt = now
      data.saveUser(user)
      session.addClaim("totp", at: now)
      session.aal = session.computedAAL
      session.factorID = factorID
      session.updatedAt = now
      data.saveSession(session)
      let issued = swapRefreshToken(of: session, user: user, in: &data, now: now)
      // `InvalidateSessionsWithAALLessThan(aal2)`: the user's aal1 sessions end.
      for other in data.sessions(ofUser: user.id) where other.id != session.id && other.aal < "aal2" {
        data.deleteSession(id: other.id)
      }
      return (user, session, issued)
    }
    return context.json(
      bytes: context.sessionBody(user: user, session: session, refreshToken: refreshToken, request: request, now: now))
  }

  /// `GrantRefreshTokenSwap`: the session's active token is revoked and a child issued (the aal1
  /// token cannot mint aal2 sessions).
  func swapRefreshToken(of session: SBSession, user: SBUser, in data: inout SupabaseData, now: Micros) -> String {
    let parent = data.activeRefreshToken(ofSession: session.id)
    data.recordAudit("token_revoked", user: user, at: now)
    if var parent {
      parent.revoked = true
      parent.updatedAt = now
      data.saveRefreshToken(parent)
    }
    let child = SBRefreshToken(
      token: EmulatorRandom.refreshToken(), sessionID: session.id, userID: user.id, parent: parent?.token,
      createdAt: now, updatedAt: now, sequence: data.takeSequence())
    data.saveRefreshToken(child)
    data.pruneRefreshTokens(ofSession: session.id, keep: GoTrueContext.refreshTokensKeptPerSession)
    return child.token
  }

  // MARK: - DELETE /factors/{id}

  func unenrollFactor(_ request: ServerRequest, _ path: FactorIDPath) throws -> ServerResponse {
    let (caller, sessionID) = try factorCaller(request)
    let factorID = try Self.factorID(path.factorID, of: caller.user)
    let now = context.now
    let ip = context.clientIP(request)
    try context.state.transaction { data in
      guard var user = data.users[caller.user.id], let factor = user.factors.first(where: { $0.id == factorID }) else {
        throw GoTrueError.notFound("mfa_factor_not_found", "Factor not found")
      }
      // GoTrue answers 422 here (403 when enrolling a new factor at aal1).
      if factor.isVerified, data.sessions[sessionID]?.aal != "aal2" {
        throw GoTrueError.unprocessable("insufficient_aal", "AAL2 required to unenroll verified factor")
      }
      user.factors.removeAll { $0.id == factorID }
      user.updatedAt = now
      data.saveUser(user)
      data.recordAudit(
        "factor_unenrolled", user: user, ip: ip,
        traits: [
          "factor_id": .string(factorID), "factor_status": .string(factor.status), "session_id": .string(sessionID),
        ], at: now)
      data.downgradeSessions(ofFactor: factorID, userID: user.id, now: now)
    }
    return context.json(["id": .string(factorID)])
  }
}

extension SupabaseData {
  /// `DowngradeSessionsToAAL1`: sessions that verified this factor lose its claim and go back to aal1.
  mutating func downgradeSessions(ofFactor factorID: String, userID: String, now: Micros) {
    for var session in sessions(ofUser: userID) where session.factorID == factorID {
      session.amr.removeAll { $0.method == "totp" }
      session.aal = "aal1"
      session.factorID = nil
      session.updatedAt = now
      saveSession(session)
    }
  }
}
