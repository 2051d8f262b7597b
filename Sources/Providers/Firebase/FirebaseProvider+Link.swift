import AuthCore
import Essentials
import JSONKit

/// E-mail-link sign-in: `sendOobCode` `EMAIL_SIGNIN`, then `accounts:signInWithEmailLink` with
/// the link's `oobCode` (which may answer a second step, as a password does).
extension FirebaseProvider {
  package func sendSignInLink(email: String) async throws {
    // The link must continue somewhere the project authorises; its own web domain always is.
    let continueUrl = "https://\(projectId ?? "localhost").firebaseapp.com/"
    let body: JSON = ["requestType": "EMAIL_SIGNIN", "email": .string(email), "continueUrl": .string(continueUrl)]
    _ = try await accounts("sendOobCode", body, as: .sendOobCode)
  }

  package func signInWithLink(email: String, codeOrLink: String) async throws -> SignInStep {
    var code = codeOrLink
    if let components = URLComponents(string: codeOrLink), components.scheme != nil {
      guard let value = components.queryItems?.first(where: { $0.name == "oobCode" })?.value, !value.isEmpty else {
        throw AuthError(.invalidCode, message: "This sign-in link is invalid or has expired.")
      }
      code = value
    }
    let json: JSON
    let response: HTTPResponse
    do {
      (json, response) = try await accounts(
        "signInWithEmailLink", ["email": .string(email), "oobCode": .string(code)], as: .signIn)
    } catch var error as AuthError where error.code == .invalidCode {
      error.message = "This sign-in link is invalid or has expired."
      throw error
    }
    if let pending = json["mfaPendingCredential"]?.string, json["idToken"]?.string == nil {
      return .secondFactorDue(pendingStep(json, email: email, credential: pending))
    }
    return .signedIn(try IdentityToolkitDecoding.session(json, response: response, now: clock.unixNow))
  }
}

extension FirebaseProvider {
  /// `accounts:createAuthUri`: the providers the address signed in with (none are named when the
  /// project protects against e-mail enumeration).
  package func socialProviders(for email: String) async throws -> [String] {
    let body: JSON = ["identifier": .string(email), "continueUri": "http://localhost"]
    let (json, _) = try await accounts("createAuthUri", body, as: .other)
    let providers = (json["allProviders"]?.array ?? []).compactMap(\.string)
    return providers.filter { $0 != "password" && $0 != "emailLink" }.map(AuthUser.signInMethod)
  }
}
