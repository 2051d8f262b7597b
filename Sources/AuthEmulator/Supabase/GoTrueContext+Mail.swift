import Essentials
import HTTPServerKit
import JSONKit

/// Mails (`mail.go`): one live token per kind, the per-user frequency limit, and the outbox.
extension GoTrueContext {
  enum MailKind: String {
    case signup, recovery, magiclink, invite
    case emailChange = "email_change"
  }

  /// A fresh 6-digit code and its token_hash = hex SHA-224(lower(email) + code).
  static func newCode(for email: String) -> (otp: String, hash: String) {
    let otp = EmulatorRandom.otp()
    return (otp, EmulatorJWT.sha224Hex(email.lowercased() + otp))
  }

  /// `{origin}/auth/v1/verify?token=<hash>&type=<type>&redirect_to=<url>`; like GoTrue's
  /// `encodeRedirectURL`, the redirect is escaped only when it contains `&`, `=` or `#`.
  func actionLink(origin: String, hash: String, type: String, redirectTo: String) -> String {
    let redirect =
      redirectTo.contains(where: { "&=#".contains($0) }) ? GoTrueRedirects.goQueryEscape(redirectTo) : redirectTo
    return origin + SupabaseAPI.prefix + "/verify?token=" + hash + "&type=" + GoTrueRedirects.goQueryEscape(type)
      + "&redirect_to="
      + redirect
  }

  /// 429 `over_email_send_rate_limit` while the last mail of this kind is younger than the
  /// frequency window (`SMTP_MAX_FREQUENCY`; texts: `SMS_MAX_FREQUENCY` and
  /// `over_sms_send_rate_limit`); N = whole seconds left, truncated.
  func checkFrequency(
    sentAt: Micros?, now: Micros, windowSeconds: Int? = nil, code: String = "over_email_send_rate_limit"
  ) throws {
    guard let sentAt else { return }
    let window = Micros(windowSeconds ?? config.mailFrequencySeconds) * 1_000_000
    let left = sentAt + window - now
    if left > 0 {
      throw GoTrueError(
        status: 429, code: code,
        message: "For security purposes, you can only request this after \(left / 1_000_000) seconds.")
    }
  }

  /// Stores a new token of `kind` on the user (checking the frequency unless `enforceLimit` is
  /// false) and returns the mail to record once the change is stored. A PKCE flow's token is
  /// stored and linked with the `pkce_` prefix (`addFlowPrefixToToken`); the code stays six digits.
  func prepareMail(
    _ kind: MailKind, user: inout SBUser, request: ServerRequest, redirectTo: String, now: Micros,
    enforceLimit: Bool = true, pkce: Bool = false
  ) throws -> OutboxMessage {
    let address = kind == .emailChange ? user.newEmail : user.email
    switch kind {
    case .signup, .invite:
      if enforceLimit { try checkFrequency(sentAt: user.confirmationSentAt, now: now) }
    case .recovery, .magiclink:
      if enforceLimit { try checkFrequency(sentAt: user.recoverySentAt, now: now) }
    case .emailChange:
      if enforceLimit { try checkFrequency(sentAt: user.emailChangeSentAt, now: now) }
    }
    if enforceLimit {
      // `sendEmail`: the recipient check comes before the project's quota.
      try checkMayReceiveMail(address)
      try checkEmailQuota()
    }
    let fresh = Self.newCode(for: address)
    let code = (otp: fresh.otp, hash: pkce ? Self.pkcePrefix + fresh.hash : fresh.hash)
    switch kind {
    case .signup, .invite:
      user.confirmationToken = code.hash
      user.confirmationSentAt = now
      if kind == .invite { user.invitedAt = now }
    case .recovery, .magiclink:
      user.recoveryToken = code.hash
      user.recoverySentAt = now
    case .emailChange:
      user.emailChangeToken = code.hash
      user.emailChangeSentAt = now
      user.emailChangeTokenCurrent = ""
      user.emailChangeConfirmStatus = 0
    }
    let link = actionLink(origin: origin(of: request), hash: code.hash, type: kind.rawValue, redirectTo: redirectTo)
    return OutboxMessage(
      side: .supabase, kind: kind.rawValue, email: address, code: code.otp, link: link,
      time: clock.now())
  }

  /// Like production with the built-in mail service: only the organisation's team addresses
  /// receive mail (GoTrue's `checkEmailAddressAuthorization`, 400 `email_address_not_authorized`;
  /// nothing is stored when it refuses).
  func checkMayReceiveMail(_ address: String) throws {
    guard !mode.mayReceiveMail(address) else { return }
    throw GoTrueError.badRequest(
      "email_address_not_authorized",
      "Email address \(GoTrueRedirects.goQuoted(address)) cannot be used as it is not authorized")
  }

  /// Like production only: GoTrue's `RATE_LIMIT_EMAIL_SENT` for the project (2 mails an hour on
  /// the built-in mail service, 30 with custom SMTP).
  func checkEmailQuota() throws {
    guard mode.likeProduction, !mode.emailQuota.allow(at: clock.now()) else { return }
    throw GoTrueError(status: 429, code: "over_email_send_rate_limit", message: "email rate limit exceeded")
  }

  /// An e-mail change mails the new address and, as GoTrue's default secure e-mail change does,
  /// the current one too (each with its own code; both links must be followed when confirmation
  /// is on, either one otherwise).
  func prepareEmailChangeMails(
    user: inout SBUser, request: ServerRequest, redirectTo: String, now: Micros, pkce: Bool = false
  ) throws -> [OutboxMessage] {
    // Secure e-mail change: the current address must be able to receive its mail too.
    if !user.email.isEmpty { try checkMayReceiveMail(user.email) }
    let toNew = try prepareMail(
      .emailChange, user: &user, request: request, redirectTo: redirectTo, now: now, pkce: pkce)
    guard !user.email.isEmpty else { return [toNew] }
    let fresh = Self.newCode(for: user.email)
    let code = (otp: fresh.otp, hash: pkce ? Self.pkcePrefix + fresh.hash : fresh.hash)
    user.emailChangeTokenCurrent = code.hash
    let link = actionLink(
      origin: origin(of: request), hash: code.hash, type: MailKind.emailChange.rawValue,
      redirectTo: redirectTo)
    let toCurrent = OutboxMessage(
      side: .supabase, kind: MailKind.emailChange.rawValue, email: user.email,
      code: code.otp, link: link, time: clock.now())
    return [toCurrent, toNew]
  }

  func record(_ mails: [OutboxMessage]) {
    for mail in mails { outbox.record(mail) }
  }
}
