import Essentials
import HTTPServerKit
import HostedLimits
import JSONKit

/// Texts (`phone.go` `sendPhoneConfirmation`), for phone sign-up, `/otp`, `/resend` and `PUT /user`:
/// the code goes to the outbox, as the local stacks' test OTPs do, kind `sms` (or `phone_change`),
/// addressed to the number in E.164 (`+15551234567`).
extension GoTrueContext {
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

}
