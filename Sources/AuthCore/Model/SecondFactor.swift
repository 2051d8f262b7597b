import Essentials
import JSONKit

extension AuthSession {
  /// The assurance level of the tokens (`session.aal`): `aal2` after a second factor, else
  /// `aal1`. Supabase says it in the JWT's `aal`; Firebase names the second factor in
  /// `firebase.sign_in_second_factor`.
  package var aal: String {
    guard let claims = JWTClaims.decode(accessToken) else { return "aal1" }
    if let level = claims["aal"]?.string, !level.isEmpty { return level }
    return claims["firebase"]?["sign_in_second_factor"]?.string == nil ? "aal1" : "aal2"
  }

  /// How the person proved who they are (`session.amr`): Supabase's `amr[].method`
  /// (`password`, `totp`, `otp`, …), or Firebase's sign-in provider and second factor.
  package var amr: [String] {
    guard let claims = JWTClaims.decode(accessToken) else { return [] }
    if let entries = claims["amr"]?.array {
      return entries.compactMap { $0["method"]?.string ?? $0.string }
    }
    guard let firebase = claims["firebase"] else { return [] }
    return [firebase["sign_in_provider"]?.string, firebase["sign_in_second_factor"]?.string].compactMap { $0 }
  }
}

/// A sign-in whose first step (the password, or a link) succeeded and whose second is due.
package struct PendingSecondFactor: Sendable {
  package var email: String
  /// The factors the account can finish with (verified ones).
  package var factors: [AuthFactor]
  /// Supabase: the `aal1` session whose token asks for a challenge.
  package var firstStep: AuthSession?
  /// Firebase: `mfaPendingCredential`.
  package var pendingCredential: String?

  package init(email: String, factors: [AuthFactor], firstStep: AuthSession? = nil, pendingCredential: String? = nil) {
    self.email = email
    self.factors = factors
    self.firstStep = firstStep
    self.pendingCredential = pendingCredential
  }
}

/// What a first sign-in step answers.
package enum SignInStep: Sendable {
  case signedIn(AuthSession)
  case secondFactorDue(PendingSecondFactor)
}

/// A TOTP factor being enrolled: what the authenticator app needs, and what finishes it.
package struct TOTPEnrollment: Sendable {
  /// Supabase factor id; Firebase `sessionInfo` (the enrolment's handle until it is finalised).
  package var handle: String
  package var secret: String
  /// `otpauth://totp/ISSUER:EMAIL?secret=…&issuer=…`.
  package var uri: String
  package var name: String?
  /// The factor's id once known (Supabase: at once; Firebase: after the first code).
  package var factorID: String?

  package init(handle: String, secret: String, uri: String, name: String?, factorID: String? = nil) {
    self.handle = handle
    self.secret = secret
    self.uri = uri
    self.name = name
    self.factorID = factorID
  }

  /// As printed without `--show-tokens`: the secret, and the URI's `secret=`, as `***`.
  package var redacted: TOTPEnrollment {
    var copy = self
    copy.secret = Redactor.mask
    copy.uri = uri.replacingAll(secret, with: Redactor.mask)
    return copy
  }

  /// The URI an authenticator app reads, built as Firebase's SDK does (Supabase sends its own).
  package static func uri(issuer: String, account: String, secret: String) -> String {
    let label = percentEncoded(issuer) + ":" + percentEncoded(account)
    return "otpauth://totp/\(label)?secret=\(secret)&issuer=\(percentEncoded(issuer))&algorithm=SHA1&digits=6&period=30"
  }

  static func percentEncoded(_ text: String) -> String { text.percentEncoded(keeping: "-._~@") }
}

/// The second-factor calls of a backend. Defaults say "not supported", so a backend (or a test
/// double) without them still is an `AuthProvider`.
extension AuthProvider {
  package func beginSignIn(email: String, password: String) async throws -> SignInStep {
    .signedIn(try await signIn(email: email, password: password))
  }

  package func finishSignIn(_ pending: PendingSecondFactor, factor: AuthFactor, code: String) async throws
    -> AuthSession
  {
    throw AuthError(.notSupported, message: "This backend has no second-factor sign-in here.")
  }

  package func enrollTOTP(_ session: AuthSession, name: String?) async throws -> TOTPEnrollment {
    throw AuthError(.notSupported, message: "This backend cannot enrol second factors here.")
  }

  package func verifyEnrollment(_ session: AuthSession, _ enrollment: TOTPEnrollment, code: String) async throws
    -> AuthSession
  {
    throw AuthError(.notSupported, message: "This backend cannot enrol second factors here.")
  }

  package func sendSignInLink(email: String) async throws {
    throw AuthError(.notSupported, message: "This backend has no passwordless sign-in here.")
  }

  package func signInWithLink(email: String, codeOrLink: String) async throws -> SignInStep {
    throw AuthError(.notSupported, message: "This backend has no passwordless sign-in here.")
  }

  package func socialProviders(for email: String) async throws -> [String] { [] }

  /// Removes a factor; the new session when the backend issues one.
  package func removeFactor(_ session: AuthSession, id: String) async throws -> AuthSession? {
    throw AuthError(.notSupported, message: "This backend cannot remove second factors here.")
  }
}
