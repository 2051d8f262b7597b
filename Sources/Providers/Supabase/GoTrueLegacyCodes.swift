import AuthCore
import JSONKit

/// The error code an older GoTrue meant, read from its message: servers before v2.145 send
/// `{"code":400,"msg":"User already registered"}` with no `error_code`, and up to v2.158 the
/// password grant answered `{"error":"invalid_grant","error_description":"Email not confirmed"}`.
enum GoTrueLegacyCodes {
  static func code(message: String, json: JSON) -> String? {
    let text = message.lowercased()
    if json["weak_password"] != nil { return "weak_password" }
    let phrases: [(String, String)] = [
      ("invalid login credentials", "invalid_credentials"),
      ("email not confirmed", "email_not_confirmed"),
      ("user already registered", "user_already_exists"),
      ("has already been registered", "email_exists"),
      ("invalid refresh token", "refresh_token_not_found"),
      ("user is banned", "user_banned"),
      ("token has expired or is invalid", "otp_expired"),
      ("email link is invalid or has expired", "otp_expired"),
      ("new password should be different", "same_password"),
      ("signups not allowed", "signup_disabled"),
      ("email signups are disabled", "email_provider_disabled"),
      ("email logins are disabled", "email_provider_disabled"),
      ("captcha protection", "captcha_failed"),
      ("request rate limit reached", "over_request_rate_limit"),
      ("for security purposes, you can only request this", "over_email_send_rate_limit"),
      ("password update requires reauthentication", "reauthentication_needed"),
      ("current password required", "current_password_required"),
      ("this endpoint requires a bearer token", "no_authorization"),
    ]
    if let hit = phrases.first(where: { text.contains($0.0) }) { return hit.1 }
    // Before weak_password reasons existed: 422 "Password should be at least 6 characters".
    if text.hasPrefix("password should") { return "weak_password" }
    if text.hasPrefix("password cannot be longer") || text.hasPrefix("unable to validate email") {
      return "validation_failed"
    }
    // 401 "invalid JWT: unable to parse or verify signature, …" on /user and /logout.
    if text.hasPrefix("invalid jwt") { return "bad_jwt" }
    return nil
  }
}
