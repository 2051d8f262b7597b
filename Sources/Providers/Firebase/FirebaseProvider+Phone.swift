import AuthCore
import JSONKit

/// Phone sign-in: `accounts:sendVerificationCode` `{phoneNumber}` → `sessionInfo`, then
/// `accounts:signInWithPhoneNumber` `{sessionInfo, code}` → tokens (a new number makes an account).
extension FirebaseProvider {
  package func sendPhoneCode(phone: String) async throws -> PhoneVerification {
    let (json, response) = try await accounts("sendVerificationCode", ["phoneNumber": .string(phone)], as: .phone)
    guard let sessionInfo = json["sessionInfo"]?.string, !sessionInfo.isEmpty else {
      throw WireBody.missing("sessionInfo", in: response)
    }
    return PhoneVerification(phone: phone, sessionInfo: sessionInfo)
  }

  package func signInWithPhone(_ verification: PhoneVerification, code: String) async throws -> AuthSession {
    guard let sessionInfo = verification.sessionInfo else {
      throw AuthError(.invalidCode, message: PhoneVerification.invalidCodeMessage)
    }
    let body: JSON = ["sessionInfo": .string(sessionInfo), "code": .string(code)]
    let (json, response) = try await accounts("signInWithPhoneNumber", body, as: .phone)
    var session = try IdentityToolkitDecoding.session(json, response: response, now: clock.unixNow)
    session.user.phone = json["phoneNumber"]?.string ?? session.user.phone ?? verification.phone
    return session
  }

  /// `accounts:signInWithCustomToken` `{token, returnSecureToken}` → tokens (a new uid makes an account).
  package func signInWithCustomToken(_ token: String) async throws -> AuthSession {
    let body: JSON = ["token": .string(token), "returnSecureToken": true]
    let (json, response) = try await accounts("signInWithCustomToken", body, as: .signIn)
    return try IdentityToolkitDecoding.session(json, response: response, now: clock.unixNow)
  }
}
