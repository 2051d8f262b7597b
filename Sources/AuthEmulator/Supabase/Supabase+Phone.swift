import Essentials
import HTTPServerKit
import HostedLimits
import JSONKit

/// Phone sign-in with a code by SMS (`otp.go` `SmsOtp`, `phone.go` `sendPhoneConfirmation`,
/// `verify.go` `smsVerify`): the code goes to the outbox, as the local stacks' test OTPs do, kind
/// `sms`, addressed to the number in E.164 (`+15551234567`).
extension SupabaseAPI {
  /// `POST /otp` with a phone: a new (or not yet confirmed) number is signed up with a password
  /// nobody knows and gets a confirmation code; a confirmed one gets a sign-in code. Both codes
  /// live in the confirmation token slot, as `token_hash = hex(SHA-224(phone + code))`.
  func smsOtp(_ request: ServerRequest, phone rawPhone: String, channel: String, createUser: Bool, metadata: JSONObject)
    throws -> ServerResponse
  {
    let phone = try GoTrueRules.validatePhone(rawPhone)
    try Self.checkChannel(channel)
    if !createUser, state.read({ $0.user(phone: phone) }) == nil {
      throw GoTrueError.unprocessable("otp_disabled", "Signups not allowed for otp")
    }
    let temporaryHash =
      state.read({ $0.user(phone: phone) }) == nil
      ? PasswordHasher.hash(EmulatorRandom.uuid() + EmulatorRandom.refreshToken(), cost: config.bcryptCost) : nil
    let now = self.now
    let sms = try state.transaction { data -> OutboxMessage in
      var user: SBUser
      if let existing = data.user(phone: phone) {
        user = existing
      } else {
        guard let temporaryHash else { throw GoTrueError.internal("Database error finding user") }
        user = SBUser(
          id: EmulatorRandom.uuid(), email: "", passwordHash: temporaryHash,
          appMetadata: JSONObject([("provider", "phone"), ("providers", [])]), userMetadata: metadata,
          createdAt: now, updatedAt: now)
        user.setPhone(phone, confirmed: false, at: now)
      }
      let action = user.phoneConfirmedAt == nil ? "user_confirmation_requested" : "user_recovery_requested"
      data.recordAudit(action, user: user, traits: ["provider": "phone", "channel": "sms"], at: now)
      let sms = try prepareSMS(user: &user, now: now)
      data.saveUser(user)
      return sms
    }
    outbox.record(sms)
    // GoTrue answers `message_id` only for a configured test OTP ("test-otp"); a provider's id
    // is shadowed in `sendPhoneConfirmation`, so a real send answers `{}`.
    return json([:])
  }

  /// `IsValidMessageChannel`: sms, or whatsapp (which needs a Twilio provider; the emulator has none).
  static func checkChannel(_ channel: String) throws {
    guard channel.isEmpty || channel == "sms" else {
      throw GoTrueError.validation(
        "Invalid channel, supported values are 'sms' or 'whatsapp'. 'whatsapp' is only supported if Twilio or "
          + "Twilio Verify is used as the provider.")
    }
  }

  /// `sendPhoneConfirmation` for a sign-in code: it goes in the confirmation slot.
  func prepareSMS(user: inout SBUser, now: Micros) throws -> OutboxMessage {
    let (code, text) = try textCode(kind: "sms", to: user.phone, lastSentAt: user.confirmationSentAt, now: now)
    user.confirmationToken = EmulatorJWT.sha224Hex(user.phone + code)
    user.confirmationSentAt = now
    return text
  }

  /// `PUT /user {phone}` (`sendPhoneConfirmation` with `phone_change`): the new number waits in
  /// `phone_change` with its own code, texted to it; the number changes when that code is verified.
  func preparePhoneChangeSMS(user: inout SBUser, phone: String, now: Micros) throws -> OutboxMessage {
    let (code, text) = try textCode(kind: "phone_change", to: phone, lastSentAt: user.phoneChangeSentAt, now: now)
    user.phoneChange = phone
    user.phoneChangeToken = EmulatorJWT.sha224Hex(phone + code)
    user.phoneChangeSentAt = now
    return text
  }

  /// What `sendPhoneConfirmation` checks before any text: the frequency window of the slot the code
  /// goes in, then (like production) the project's SMS quota. A fresh code and its text to `+phone`.
  private func textCode(kind: String, to phone: String, lastSentAt: Micros?, now: Micros) throws
    -> (code: String, text: OutboxMessage)
  {
    try checkFrequency(
      sentAt: lastSentAt, now: now, windowSeconds: ProductionLimits.Supabase.smsInterval,
      code: "over_sms_send_rate_limit")
    if mode.likeProduction, !mode.smsQuota.allow(at: clock.now()) {
      throw GoTrueError(status: 429, code: "over_sms_send_rate_limit", message: "SMS rate limit exceeded")
    }
    let code = EmulatorRandom.otp()
    return (
      code, OutboxMessage(side: .supabase, kind: kind, email: "+" + phone, code: code, link: "", time: clock.now())
    )
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
    let now = self.now
    let lifetime = Micros(ProductionLimits.Supabase.smsCodeLifetime) * 1_000_000
    return try state.transaction { data in
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
      guard let started = startSession(userID: user.id, method: "otp", in: &data, now: now) else { throw invalid }
      return (started.user, started.session, started.refreshToken)
    }
  }
}
