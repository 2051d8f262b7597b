import AuthCore
import JSONKit

/// Phone sign-in: `POST /otp` `{phone, create_user, channel: "sms"}` texts a 6-digit code (and
/// signs a new number up); `POST /verify` `{type: "sms", phone, token}` answers the session.
extension SupabaseProvider {
  package func sendPhoneCode(phone: String) async throws -> PhoneVerification {
    let body: JSON = ["phone": .string(phone), "create_user": true, "channel": "sms"]
    _ = try await call("POST", "/otp", body: body, as: .recover)
    return PhoneVerification(phone: phone)
  }

  package func signInWithPhone(_ verification: PhoneVerification, code: String) async throws -> AuthSession {
    let body: JSON = ["type": "sms", "phone": .string(verification.phone), "token": .string(code)]
    do {
      let (json, response) = try await call("POST", "/verify", body: body, as: .verify)
      return try GoTrueDecoding.session(json, response: response, now: clock.unixNow)
    } catch var error as AuthError where error.code == .invalidCode {
      error.message = PhoneVerification.invalidCodeMessage
      throw error
    }
  }
}
