import AuthCore
import Essentials
import JSONKit

/// `login --oauth`, as supabase-js's `signInWithOAuth` runs it under PKCE: the browser goes to
/// `/authorize?provider=…&redirect_to=CALLBACK&code_challenge=…`, comes back to the callback with
/// `?code=`, and `POST /token?grant_type=pkce` trades the code and the verifier for the session.
extension SupabaseProvider {
  package func beginOAuth(provider: String, callback: String, pkce: PKCEPair) async throws -> OAuthStart {
    // `/authorize` is the browser's to open, so nothing would tell authsh that the server is down
    // (it would wait for a callback that never comes): the project's public settings are asked
    // first, and a server that does not answer fails here, as every other command does.
    _ = try await call("GET", "/settings", as: .other)
    let query = [
      ("provider", provider), ("redirect_to", callback), ("code_challenge", pkce.challenge),
      ("code_challenge_method", PKCEPair.method),
    ].map { "\($0.0)=\($0.1.percentEncoded(keeping: "-._~"))" }.joined(separator: "&")
    return OAuthStart(
      provider: provider, url: endpoint + "/authorize?" + query, callback: callback, verifier: pkce.verifier)
  }

  package func finishOAuth(_ start: OAuthStart, returnedTo url: String) async throws -> AuthSession {
    if let problem = OAuthStart.parameter("error_description", in: url) ?? OAuthStart.parameter("error", in: url) {
      let code = OAuthStart.parameter("error_code", in: url) ?? OAuthStart.parameter("error", in: url) ?? ""
      throw AuthError(
        code == "access_denied" ? .cancelled : .providerError,
        message: "The sign-in with \(start.provider) did not finish: \(problem)", providerCode: code)
    }
    guard let code = OAuthStart.parameter("code", in: url), !code.isEmpty, let verifier = start.verifier else {
      throw AuthError(
        .providerError,
        message: "The browser came back without a code (is PKCE off for this project? authsh signs in with PKCE).")
    }
    return try await exchangeAuthCode(code, verifier: verifier)
  }
}
