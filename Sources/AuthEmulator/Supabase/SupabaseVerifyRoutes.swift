import Essentials
import HTTPServerKit
import HostedLimits
import JSONKit

/// `POST /verify` and `GET /verify` (`verify.go`): mailed codes and links, and texted codes
/// (`smsVerify`), become a session.
struct SupabaseVerifyRoutes: Sendable {
  static let emailVerifyTypes: Set<String> = ["signup", "invite", "recovery", "magiclink", "email_change", "email"]

  let context: GoTrueContext

  func verifyPost(_ request: ServerRequest) throws -> ServerResponse {
    let params = try RequestParams(request)
    let type = try params.string("type")
    let token = try params.string("token")
    var tokenHash = try params.string("token_hash")
    let rawEmail = try params.string("email")
    let phone = try params.string("phone")
    if type.isEmpty { throw GoTrueError.validation("Verify requires a verification type") }
    if token.isEmpty == tokenHash.isEmpty {
      throw GoTrueError.validation("Verify requires either a token or a token hash")
    }
    var email: String?
    if !token.isEmpty {
      if !phone.isEmpty && rawEmail.isEmpty {
        let now = context.now
        let (user, session, refreshToken) = try verifySMS(type: type, phone: phone, token: token)
        return context.json(
          bytes: context.sessionBody(
            user: user, session: session, refreshToken: refreshToken, request: request, now: now))
      }
      guard !rawEmail.isEmpty && phone.isEmpty else {
        throw GoTrueError.validation("Only an email address or phone number should be provided on verify")
      }
      guard let valid = try? GoTrueRules.validateEmail(rawEmail) else {
        throw GoTrueError.validation("Invalid email format", status: 422)
      }
      email = valid
      tokenHash = EmulatorJWT.sha224Hex(valid + token)
    } else if try !rawEmail.isEmpty || !phone.isEmpty || !params.string("redirect_to").isEmpty {
      throw GoTrueError.validation("Only the token_hash and type should be provided")
    }
    let now = context.now
    let verified: (SBUser, SBSession, String)
    do {
      verified = try verify(type: type, tokenHash: tokenHash, email: email, now: now)
    } catch is EmailChangeHalfConfirmed {
      return context.json(["msg": .string(EmailChangeHalfConfirmed.message), "code": "200"])
    }
    let (user, session, refreshToken) = verified
    return context.json(
      bytes: context.sessionBody(user: user, session: session, refreshToken: refreshToken, request: request, now: now))
  }

  /// The mail link: success and failure are both 303 redirects with the data in the fragment;
  /// a PKCE link (`pkce_` token) redirects with `?code=` and puts errors in the query too.
  func verifyGet(_ request: ServerRequest) throws -> ServerResponse {
    let type = request.query("type") ?? ""
    let tokenHash = request.query("token") ?? ""
    if type.isEmpty { throw GoTrueError.validation("Verify requires a verification type") }
    if tokenHash.isEmpty { throw GoTrueError.validation("Verify requires a token or a token hash") }
    var target = context.redirectTarget(request, body: request.header("Referer"))
    if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
    var flowMethod: String?
    if tokenHash.hasPrefix(GoTrueContext.pkcePrefix) {
      guard let method = GoTrueContext.flowMethod(forVerifyType: type) else {
        throw GoTrueError.internal("unsupported authentication method \(GoTrueRedirects.goQuoted(type))")
      }
      flowMethod = method
    }
    let now = context.now
    let fragment: [(String, String)]
    do {
      switch try verify(type: type, tokenHash: tokenHash, email: nil, now: now, flowMethod: flowMethod) {
      case .authCode(let code):
        return ServerResponse(
          status: 303, headers: [("Location", GoTrueRedirects.settingQuery([("code", code)], on: target))])
      case .session(let user, let session, let refreshToken):
        let (accessToken, expiresAt) = context.accessToken(
          user: user, session: session, issuer: context.issuer(for: request), now: now)
        fragment = [
          ("access_token", accessToken), ("expires_at", String(expiresAt)),
          ("expires_in", String(expiresAt - Int(now / 1_000_000))), ("refresh_token", refreshToken), ("sb", ""),
          ("token_type", "bearer"), ("type", type),
        ]
      }
    } catch is EmailChangeHalfConfirmed {
      if flowMethod != nil {
        target = GoTrueRedirects.settingQuery([("message", EmailChangeHalfConfirmed.message)], on: target)
      }
      fragment = [("message", EmailChangeHalfConfirmed.message), ("sb", "")]
    } catch let error as GoTrueError {
      let described = GoTrueRedirects.redirectError(error)
      if flowMethod != nil { target = GoTrueRedirects.settingQuery(described, on: target) }
      fragment = described + [("sb", "")]
    }
    return ServerResponse(status: 303, headers: [("Location", target + "#" + GoTrueRedirects.goQueryEncode(fragment))])
  }

  /// Finds the user holding the token, applies the verification, starts a session (amr `otp`).
  func verify(type: String, tokenHash: String, email: String?, now: Micros) throws -> (SBUser, SBSession, String) {
    switch try verify(type: type, tokenHash: tokenHash, email: email, now: now, flowMethod: nil) {
    case .session(let user, let session, let refreshToken): return (user, session, refreshToken)
    case .authCode: throw GoTrueError.internal("Internal Server Error")
    }
  }

  enum Verified: Sendable {
    case session(SBUser, SBSession, String)
    /// A PKCE link: the flow's auth code, and no session yet.
    case authCode(String)
  }

  /// The same, ending for a PKCE link (`flowMethod` set) in the newest flow's auth code instead
  /// of a session; without such a flow nothing changes (GoTrue rolls the verification back).
  func verify(type: String, tokenHash: String, email: String?, now: Micros, flowMethod: String?) throws -> Verified {
    if type == "sms" || type == "phone_change" {
      throw GoTrueError.forbidden("otp_expired", "Token has expired or is invalid")
    }
    guard Self.emailVerifyTypes.contains(type) else { throw GoTrueError.validation("Unsupported verification type") }
    let invalid =
      email == nil
      ? GoTrueError.forbidden("otp_expired", "Email link is invalid or has expired")
      : GoTrueError.forbidden("otp_expired", "Token has expired or is invalid")
    let lifetime = Micros(context.config.otpLifetime) * 1_000_000
    // `isOtpValid`: a typed code also matches the token of a PKCE flow (stored with its prefix).
    func live(_ stored: String, _ sentAt: Micros?) -> Bool {
      !stored.isEmpty && (stored == tokenHash || (email != nil && stored == GoTrueContext.pkcePrefix + tokenHash))
        && sentAt.map { now <= $0 + lifetime } ?? false
    }
    return try context.state.transaction { data in
      let candidates: [SBUser]
      if let email {
        candidates =
          type == "email_change"
          ? data.users.values.filter { $0.newEmail == email || $0.email == email }
          : data.user(email: email).map { [$0] } ?? []
      } else {
        candidates = Array(data.users.values)
      }
      var effective = type
      guard
        var user = candidates.first(where: { user in
          switch type {
          case "signup", "invite": return live(user.confirmationToken, user.confirmationSentAt)
          case "recovery", "magiclink": return live(user.recoveryToken, user.recoverySentAt)
          case "email_change":
            return live(user.emailChangeToken, user.emailChangeSentAt)
              || live(user.emailChangeTokenCurrent, user.emailChangeSentAt)
          default:
            return live(user.confirmationToken, user.confirmationSentAt)
              || live(user.recoveryToken, user.recoverySentAt)
          }
        })
      else { throw invalid }
      if user.isBanned(at: now) { throw GoTrueError.forbidden("user_banned", "User is banned") }
      let authCode = try flowMethod.map { try context.issueAuthCode(userID: user.id, method: $0, in: &data, now: now) }
      if type == "email" { effective = live(user.confirmationToken, user.confirmationSentAt) ? "signup" : "magiclink" }
      switch effective {
      case "signup", "invite":
        data.recordAudit("user_signedup", user: user, traits: ["provider": "email"], at: now)
        user.confirm(at: now)
        user.markIdentityVerified(at: now)
      case "recovery", "magiclink":
        user.recoveryToken = ""
        if user.isConfirmed {
          data.recordAudit("login", user: user, at: now)
        } else {
          data.recordAudit("user_signedup", user: user, traits: ["provider": "email"], at: now)
          user.confirm(at: now)
        }
      default:  // email_change
        if context.confirmEmail, user.emailChangeConfirmStatus == 0, !user.emailChangeTokenCurrent.isEmpty {
          // Secure change with confirmation on: the first of the two links only counts.
          if user.emailChangeTokenCurrent == tokenHash {
            user.emailChangeTokenCurrent = ""
          } else {
            user.emailChangeToken = ""
          }
          user.emailChangeConfirmStatus = 1
          data.saveUser(user)
          throw EmailChangeHalfConfirmed()
        }
        if data.user(email: user.newEmail).map({ $0.id != user.id }) ?? false { throw GoTrueError.duplicateEmail }
        user.email = user.newEmail
        user.newEmail = ""
        user.emailChangeToken = ""
        user.emailChangeTokenCurrent = ""
        user.emailChangeConfirmStatus = 0
        user.identity?.data["email"] = .string(user.email)
        user.identity?.updatedAt = now
        data.recordAudit("user_modified", user: user, at: now)
      }
      user.updatedAt = now
      data.saveUser(user)
      if let authCode { return .authCode(authCode) }
      guard let started = context.startSession(userID: user.id, method: "otp", in: &data, now: now) else {
        throw invalid
      }
      return .session(started.user, started.session, started.refreshToken)
    }
  }

  /// `POST /verify` `{type: "sms" | "phone_change", phone, token}`: a live code confirms the
  /// number (sms) or makes the pending number the account's (phone_change, found by
  /// `phone_change` as `FindUserByPhoneChangeAndAudience` does) and starts a session (amr `otp`).
  /// Any other type with a phone is refused.
  func verifySMS(type: String, phone rawPhone: String, token: String) throws -> (SBUser, SBSession, String) {
    let phone = try GoTrueRules.validatePhone(rawPhone)
    let invalid = GoTrueError.forbidden("otp_expired", "Token has expired or is invalid")
    // Any other type looks the user up by e-mail (none given) first: not found (`verifyUserAndToken`).
    guard type == "sms" || type == "phone_change" else { throw invalid }
    let change = type == "phone_change"
    let hash = EmulatorJWT.sha224Hex(phone + token)
    let now = context.now
    let lifetime = Micros(ProductionLimits.Supabase.smsCodeLifetime) * 1_000_000
    return try context.state.transaction { data in
      let found = change ? data.users.values.first { $0.phoneChange == phone } : data.user(phone: phone)
      guard var user = found else { throw invalid }
      if user.isBanned(at: now) { throw GoTrueError.forbidden("user_banned", "User is banned") }
      let (expected, sentAt) =
        change ? (user.phoneChangeToken, user.phoneChangeSentAt) : (user.confirmationToken, user.confirmationSentAt)
      guard let sentAt, !expected.isEmpty, now <= sentAt + lifetime, ConstantTime.equal(expected, hash) else {
        throw invalid
      }
      if change {
        // `ConfirmPhoneChange`, and the phone identity created or updated (`smsVerify`).
        guard data.user(phone: phone) == nil else { throw GoTrueError.phoneTaken }
        data.recordAudit("user_modified", user: user, at: now)
        user.setPhone(phone, confirmed: true, at: now)
        user.phoneChange = ""
        user.phoneChangeToken = ""
      } else {
        data.recordAudit("user_signedup", user: user, traits: ["provider": "phone"], at: now)
        user.confirmationToken = ""
        user.phoneConfirmedAt = now
      }
      user.isAnonymous = false
      user.updatedAt = now
      data.saveUser(user)
      guard let started = context.startSession(userID: user.id, method: "otp", in: &data, now: now) else {
        throw invalid
      }
      return (started.user, started.session, started.refreshToken)
    }
  }

}

/// The first of the two links of a secure e-mail change was followed: the other one is still needed.
struct EmailChangeHalfConfirmed: Error {
  static let message = "Confirmation link accepted. Please proceed to confirm link sent to the other email"
}
