import AuthCore
import Essentials
import JSONKit

/// Identity Toolkit v2 TOTP second factors: `mfaSignIn:finalize` after a password answer with
/// `mfaPendingCredential`, and `mfaEnrollment:start|finalize|withdraw` for the signed-in user.
extension FirebaseProvider {
  package func beginSignIn(email: String, password: String) async throws -> SignInStep {
    let body: JSON = ["email": .string(email), "password": .string(password), "returnSecureToken": true]
    let (json, response) = try await accounts("signInWithPassword", body, as: .signIn)
    if let pending = json["mfaPendingCredential"]?.string, json["idToken"]?.string == nil {
      return .secondFactorDue(pendingStep(json, email: email, credential: pending))
    }
    return .signedIn(try IdentityToolkitDecoding.session(json, response: response, now: clock.unixNow))
  }

  /// The "second step due" answer (also of `signInWithEmailLink`).
  func pendingStep(_ json: JSON, email: String, credential: String) -> PendingSecondFactor {
    PendingSecondFactor(
      email: json["email"]?.string ?? email, factors: IdentityToolkitDecoding.factors(json["mfaInfo"]),
      pendingCredential: credential)
  }

  package func finishSignIn(_ pending: PendingSecondFactor, factor: AuthFactor, code: String) async throws
    -> AuthSession
  {
    guard let credential = pending.pendingCredential else { throw AuthError(.notAuthenticated) }
    let body: JSON = [
      "mfaPendingCredential": .string(credential), "mfaEnrollmentId": .string(factor.id),
      "totpVerificationInfo": ["verificationCode": .string(code)],
    ]
    let (json, response) = try await v2("mfaSignIn:finalize", body)
    var session = try IdentityToolkitDecoding.session(json, response: response, now: clock.unixNow)
    if session.user.email.isEmpty { session.user.email = pending.email }
    session.user.factors = pending.factors
    return session
  }

  package func enrollTOTP(_ session: AuthSession, name: String?) async throws -> TOTPEnrollment {
    let body: JSON = ["idToken": .string(session.accessToken), "totpEnrollmentInfo": [:]]
    let (json, response) = try await v2("mfaEnrollment:start", body)
    guard let info = json["totpSessionInfo"], let secret = info["sharedSecretKey"]?.string,
      let handle = info["sessionInfo"]?.string
    else { throw WireBody.missing("totpSessionInfo", in: response) }
    let issuer = projectId ?? "authsh"
    let uri = TOTPEnrollment.uri(issuer: issuer, account: session.user.email, secret: secret)
    return TOTPEnrollment(handle: handle, secret: secret, uri: uri, name: name)
  }

  package func verifyEnrollment(_ session: AuthSession, _ enrollment: TOTPEnrollment, code: String) async throws
    -> AuthSession
  {
    var body = JSONObject()
    body["idToken"] = .string(session.accessToken)
    body["totpVerificationInfo"] = ["sessionInfo": .string(enrollment.handle), "verificationCode": .string(code)]
    if let name = enrollment.name { body["displayName"] = .string(name) }
    let (json, response) = try await v2("mfaEnrollment:finalize", .object(body))
    return try IdentityToolkitDecoding.session(json, response: response, now: clock.unixNow, previous: session.user)
  }

  package func removeFactor(_ session: AuthSession, id: String) async throws -> AuthSession? {
    let body: JSON = ["idToken": .string(session.accessToken), "mfaEnrollmentId": .string(id)]
    let (json, response) = try await v2("mfaEnrollment:withdraw", body)
    guard json["idToken"]?.string != nil else { return nil }
    return try IdentityToolkitDecoding.session(json, response: response, now: clock.unixNow, previous: session.user)
  }

  /// `POST {base v2}/accounts/NAME?key=KEY`; a refused code is `mfa_invalid_code`.
  func v2(_ name: String, _ body: JSON) async throws -> (JSON, HTTPResponse) {
    let base = endpoint.hasSuffix("/v1") ? String(endpoint.dropLast(3)) + "/v2" : endpoint
    do {
      return try await accounts(name, body, as: .mfa, base: base)
    } catch var error as AuthError where Self.refusedCodes.contains(error.providerCode ?? "") {
      error.code = .mfaInvalidCode
      error.message = AuthError.defaultMessage(for: .mfaInvalidCode)
      throw error
    }
  }

  /// Identity Toolkit's answers to a wrong or stale second-factor code.
  static let refusedCodes: Set<String> = [
    "INVALID_CODE", "INVALID_VERIFICATION_CODE", "INVALID_MFA_PENDING_CREDENTIAL", "SESSION_EXPIRED", "CODE_EXPIRED",
  ]
}
