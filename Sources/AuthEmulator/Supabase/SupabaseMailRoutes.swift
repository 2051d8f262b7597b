import HTTPServerKit
import JSONKit

/// `POST /recover` (`recover.go`) and `POST /resend` (`resend.go`): a mail, or a text, sent again
/// for an account that already exists; the answer never says whether it does.
struct SupabaseMailRoutes: Sendable {
  let context: GoTrueContext

  // MARK: - POST /recover

  func recover(_ request: ServerRequest) throws -> ServerResponse {
    let params = try RequestParams(request)
    let raw = try params.string("email")
    if raw.isEmpty { throw GoTrueError.validation("Password recovery requires an email") }
    let email = try GoTrueRules.validateEmail(raw)
    let pkce = try PKCEChallenge.parse(params)
    let redirectTo = context.redirectTarget(request)
    let now = context.now
    let mail = try context.state.transaction { data -> OutboxMessage? in
      guard var user = data.user(email: email) else { return nil }
      if let pkce {
        try context.startFlow(pkce, userID: user.id, method: "recovery", provider: "recovery", in: &data, now: now)
      }
      data.recordAudit("user_recovery_requested", user: user, at: now)
      let mail = try context.prepareMail(
        .recovery, user: &user, request: request, redirectTo: redirectTo, now: now, pkce: pkce != nil)
      user.updatedAt = now
      data.saveUser(user)
      return mail
    }
    context.record(mail.map { [$0] } ?? [])
    return context.json([:])
  }

  func resend(_ request: ServerRequest) throws -> ServerResponse {
    let params = try RequestParams(request)
    let type = try params.string("type")
    let rawEmail = try params.string("email")
    let phone = try params.string("phone")
    guard ["signup", "email_change", "sms", "phone_change"].contains(type) else {
      throw GoTrueError.validation("Missing one of these types: signup, email_change, sms, phone_change")
    }
    let pkce = type == "signup" || type == "email_change" ? try PKCEChallenge.parse(params) : nil
    if type == "signup" || type == "email_change" {
      if rawEmail.isEmpty { throw GoTrueError.validation("Type provided requires an email address") }
    } else {
      if phone.isEmpty { throw GoTrueError.validation("Type provided requires a phone number") }
      return try resendSMS(type: type, phone: phone)
    }
    let email = try GoTrueRules.validateEmail(rawEmail)
    let redirectTo = context.redirectTarget(request)
    let now = context.now
    let mails = try context.state.transaction { data -> [OutboxMessage] in
      if type == "signup" {
        guard var user = data.user(email: email), !user.isConfirmed else { return [] }
        if let pkce {
          try context.startFlow(
            pkce, userID: user.id, method: "email/signup", provider: "email/signup", in: &data, now: now)
        }
        data.recordAudit("user_confirmation_requested", user: user, at: now)
        let mail = try context.prepareMail(
          .signup, user: &user, request: request, redirectTo: redirectTo, now: now, pkce: pkce != nil)
        data.saveUser(user)
        return [mail]
      }
      guard var user = data.user(email: email), !user.newEmail.isEmpty else { return [] }
      if let pkce {
        try context.startFlow(
          pkce, userID: user.id, method: "email_change", provider: "email_change", in: &data, now: now)
      }
      let mails = try context.prepareEmailChangeMails(
        user: &user, request: request, redirectTo: redirectTo, now: now, pkce: pkce != nil)
      data.saveUser(user)
      return mails
    }
    context.record(mails)
    return context.json([:])
  }

  /// `/resend` for a phone: `sms` texts a new confirmation code to a number not confirmed yet,
  /// `phone_change` a new code to the number the account is changing to. An unknown number, a
  /// confirmed one, or no pending change: `{}` and nothing sent (the answer does not tell them apart).
  func resendSMS(type: String, phone rawPhone: String) throws -> ServerResponse {
    let phone = try GoTrueRules.validatePhone(rawPhone)
    let now = context.now
    let text = try context.state.transaction { data -> OutboxMessage? in
      guard var user = data.user(phone: phone) else { return nil }
      let text: OutboxMessage
      if type == "sms" {
        guard user.phoneConfirmedAt == nil else { return nil }
        data.recordAudit("user_recovery_requested", user: user, at: now)
        text = try context.prepareSMS(user: &user, now: now)
      } else {
        guard !user.phoneChange.isEmpty else { return nil }
        text = try context.preparePhoneChangeSMS(user: &user, phone: user.phoneChange, now: now)
      }
      data.saveUser(user)
      return text
    }
    if let text { context.outbox.record(text) }
    return context.json([:])
  }
}
