import AuthCore
import Essentials
import JSONKit

/// Passwordless sign-in: `POST /otp` mails a magic link and a 6-digit code; `POST /verify` with
/// either answers the session (`magiclink` + `token_hash`, or `email` + `token`).
extension SupabaseProvider {
  package func sendSignInLink(email: String) async throws {
    try await sendSignInLink(email: email, pkce: nil)
  }

  package func signInWithLink(email: String, codeOrLink: String) async throws -> SignInStep {
    let body: JSON
    if let components = URLComponents(string: codeOrLink), components.scheme != nil {
      guard let hash = components.queryItems?.first(where: { $0.name == "token_hash" || $0.name == "token" })?.value,
        !hash.isEmpty
      else { throw AuthError(.invalidCode, message: "This sign-in link is invalid or has expired.") }
      body = ["type": "magiclink", "token_hash": .string(hash)]
    } else {
      body = ["type": "email", "email": .string(email.lowercased()), "token": .string(codeOrLink)]
    }
    let session: AuthSession
    do {
      let (json, response) = try await call("POST", "/verify", body: body, as: .verify)
      session = try GoTrueDecoding.session(json, response: response, now: clock.unixNow)
    } catch var error as AuthError where error.code == .invalidCode {
      error.message = Self.invalidLinkMessage
      throw error
    }
    return Self.stepAfterLink(session, email: email)
  }

  static let invalidLinkMessage = "This sign-in link or code is invalid or has expired."

  /// Signed in, or (with a verified factor) the second step still due.
  static func stepAfterLink(_ session: AuthSession, email: String) -> SignInStep {
    let verified = session.user.factors.filter { $0.status == .verified }
    guard !verified.isEmpty, session.aal != "aal2" else { return .signedIn(session) }
    return .secondFactorDue(PendingSecondFactor(email: email, factors: verified, firstStep: session))
  }
}

extension SupabaseProvider {
  /// `GET /settings` `external`: the social providers the project has turned on.
  package func socialProviders(for email: String) async throws -> [String] {
    let (json, _) = try await call("GET", "/settings", as: .other)
    let external = json["external"]?.object ?? JSONObject()
    let notSocial: Set<String> = ["email", "phone", "anonymous_users", "saml"]
    return external.keys.filter { !notSocial.contains($0) && external[$0]?.bool == true }.sorted()
  }
}
