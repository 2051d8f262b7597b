import AuthCore
import Essentials
import JSONKit

/// PKCE, as supabase-js runs it with `flowType: 'pkce'`: `/recover` and `/otp` carry
/// `code_challenge` + `code_challenge_method`; the mailed link then redirects to the app with
/// `?code=`, which `POST /token?grant_type=pkce` trades, with the verifier, for the session.
extension SupabaseProvider {
  package func sendPasswordReset(email: String, pkce: PKCEPair?) async throws {
    _ = try await call("POST", "/recover", body: Self.withChallenge(["email": .string(email)], pkce), as: .recover)
  }

  package func sendSignInLink(email: String, pkce: PKCEPair?) async throws {
    let body = Self.withChallenge(["email": .string(email), "create_user": false], pkce)
    _ = try await call("POST", "/otp", body: body, as: .recover)
  }

  package func signInWithLink(email: String, authCode: String, verifier: String) async throws -> SignInStep {
    let session: AuthSession
    do {
      session = try await exchangeAuthCode(authCode, verifier: verifier)
    } catch var error as AuthError where error.code == .invalidCode {
      error.message = Self.invalidLinkMessage
      throw error
    }
    return Self.stepAfterLink(session, email: email)
  }

  func exchangeAuthCode(_ code: String, verifier: String) async throws -> AuthSession {
    let body: JSON = ["auth_code": .string(code), "code_verifier": .string(verifier)]
    let (json, response) = try await call("POST", "/token", query: [("grant_type", "pkce")], body: body, as: .verify)
    return try GoTrueDecoding.session(json, response: response, now: clock.unixNow)
  }

  package func confirmPasswordReset(authCode: String, verifier: String, newPassword: String) async throws
    -> AuthSession
  {
    try Self.checkBcryptLimit(newPassword)
    return try await setNewPassword(newPassword, in: try await exchangeAuthCode(authCode, verifier: verifier))
  }

  static func withChallenge(_ json: JSON, _ pkce: PKCEPair?) -> JSON {
    var body = json.object ?? JSONObject()
    if let pkce {
      body["code_challenge"] = .string(pkce.challenge)
      body["code_challenge_method"] = .string(PKCEPair.method)
    }
    return .object(body)
  }
}
