import AuthCore
import JSONKit

/// `login --oauth`, as a Firebase app without the web SDK runs it: `accounts:createAuthUri
/// {providerId, continueUri}` gives the provider's address and a `sessionId`; the browser comes
/// back to `continueUri` with the provider's answer, which `accounts:signInWithIdp {requestUri,
/// sessionId}` trades for the session (a new account, or the identity linked by its address).
extension FirebaseProvider {
  package func beginOAuth(provider: String, callback: String, pkce: PKCEPair) async throws -> OAuthStart {
    let body: JSON = ["providerId": .string(provider), "continueUri": .string(callback)]
    let (json, response) = try await accounts("createAuthUri", body, as: .signIn)
    guard let url = json["authUri"]?.string, let sessionId = json["sessionId"]?.string else {
      throw WireBody.missing("authUri", in: response)
    }
    return OAuthStart(provider: provider, url: url, callback: callback, sessionId: sessionId)
  }

  package func finishOAuth(_ start: OAuthStart, returnedTo url: String) async throws -> AuthSession {
    if let problem = OAuthStart.parameter("error_description", in: url) ?? OAuthStart.parameter("error", in: url) {
      let code = OAuthStart.parameter("error", in: url) ?? ""
      throw AuthError(
        code == "access_denied" ? .cancelled : .providerError,
        message: "The sign-in with \(start.provider) did not finish: \(problem)", providerCode: code)
    }
    let body: JSON = [
      "requestUri": .string(url), "sessionId": .string(start.sessionId ?? ""), "returnSecureToken": true,
      "returnIdpCredential": true,
    ]
    let (json, response) = try await accounts("signInWithIdp", body, as: .signIn)
    if json["needConfirmation"]?.bool == true {
      throw AuthError(
        .providerError,
        message:
          "An account with this address already signs in another way: sign in that way first, then link \(start.provider).",
        providerCode: "needConfirmation")
    }
    return try IdentityToolkitDecoding.session(json, response: response, now: clock.unixNow)
  }
}
