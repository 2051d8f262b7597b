/// A one-time code texted to a phone number, waiting to be typed: what `signInWithPhone` needs
/// besides the code (Firebase's `sessionInfo`; Supabase keys the code by the number alone).
package struct PhoneVerification: Sendable, Equatable {
  /// E.164 (`+15551234567`).
  package var phone: String
  /// Firebase `sendVerificationCode`'s `sessionInfo`; nil on Supabase.
  package var sessionInfo: String?

  package init(phone: String, sessionInfo: String? = nil) {
    self.phone = phone
    self.sessionInfo = sessionInfo
  }

  /// What a wrong, used or expired code says on both backends.
  package static let invalidCodeMessage = "This code is invalid or has expired."
}

extension AuthProvider {
  package func sendPhoneCode(phone: String) async throws -> PhoneVerification {
    throw AuthError(.notSupported, message: "This backend has no phone sign-in here.")
  }

  package func signInWithPhone(_ verification: PhoneVerification, code: String) async throws -> AuthSession {
    throw AuthError(.notSupported, message: "This backend has no phone sign-in here.")
  }

  package func signInWithCustomToken(_ token: String) async throws -> AuthSession {
    throw AuthError(
      .notSupported,
      message: "Custom tokens are Firebase's: Supabase has no sign-in with a token an app server minted.")
  }
}
