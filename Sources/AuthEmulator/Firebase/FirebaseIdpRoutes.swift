import Essentials
import HTTPServerKit
import JSONKit

/// `accounts:signInWithIdp` as the official emulator serves it (`operations.ts` `signInWithIdp`):
/// the IdP's answer is an unsigned (or any) `id_token` JWT, or its claims as strict JSON, in
/// `postBody` (`id_token=…&providerId=google.com`) or in `requestUri`. This is how emulated
/// Google-only, Apple-only, … accounts are made.
struct FirebaseIdpRoutes: Sendable {
  let context: FirebaseContext

  func signInWithIdp(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    if body.bool("returnRefreshToken") == true {
      throw FirebaseError.notImplemented("returnRefreshToken is not implemented yet.")
    }
    if body.isTruthy("pendingIdToken") { throw FirebaseError.notImplemented("pendingIdToken is not implemented yet.") }
    let params = try Self.normalizedIdpParams(body)
    guard let providerId = params["providerId"]?.lowercased(), !providerId.isEmpty else {
      throw FirebaseError.bad(
        "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: \(body.string("requestUri") ?? "")")
    }
    let idToken = params["id_token"].flatMap { $0.isEmpty ? nil : $0 }
    let accessToken = params["access_token"].flatMap { $0.isEmpty ? nil : $0 }
    guard let claims = try Self.idpClaims(idToken) ?? Self.idpClaims(accessToken) else {
      if let idToken {
        throw FirebaseError.bad(
          "INVALID_IDP_RESPONSE : Unable to parse id_token: \(idToken) ((Auth Emulator only accepts strict JSON or JWTs as fake id_tokens.))"
        )
      }
      if accessToken != nil {
        throw FirebaseError.notImplemented(
          ["google.com", "apple.com"].contains(providerId)
            ? "The Auth Emulator only support sign-in with \(providerId) using id_token, not access_token. Please update your code to use id_token."
            : "The Auth Emulator does not support \(providerId) sign-in with credentials.")
      }
      throw FirebaseError.notImplemented(
        "The Auth Emulator only supports sign-in with credentials (id_token required).")
    }
    let rawId = claims["sub"]?.string ?? ""
    var response = Self.fakeIdpUserInfo(providerId: providerId, rawId: rawId, claims: claims)
    response["oauthAccessToken"] = .string(accessToken ?? "FirebaseAuthEmulatorFakeAccessToken_\(providerId)")
    if let idToken { response["oauthIdToken"] = .string(idToken) }
    let email = response["email"]?.string
    let emailVerified = response["emailVerified"]?.bool ?? false
    let timestamp = context.now
    return try context.state.with(call.projectId) { project in
      let fromIdToken = try body.truthy("idToken").map { try context.parseIdToken(project, $0).user }
      let matchingProvider = project.user(providerId: providerId, rawId: rawId)
      var user: FirebaseUser
      var isNewUser = false
      if let fromIdToken {
        // Linking to the signed-in account.
        try require(matchingProvider == nil, "FEDERATED_USER_ID_ALREADY_LINKED")
        if let email, !project.allowDuplicateEmails {
          try require(project.user(email: email).map { $0.localId == fromIdToken.localId } ?? true, "EMAIL_EXISTS")
        }
        user = fromIdToken
        if !project.allowDuplicateEmails, let email, user.email == nil {
          (user.email, user.emailVerified) = (email, emailVerified)
        }
        if let email, emailVerified, user.email == email { user.emailVerified = true }
      } else if let matchingProvider {
        user = matchingProvider
      } else if !project.allowDuplicateEmails, let email, let matchingEmail = project.user(email: email) {
        guard emailVerified else {
          response["needConfirmation"] = true
          response["localId"] = .string(matchingEmail.localId)
          response["verifiedProvider"] = .array(matchingEmail.federated.map { .string($0.providerId) })
          return .object(response)
        }
        user = matchingEmail
        if user.emailVerified != true {
          // The address was never proven: what came with it (password, phone, other IdPs) goes.
          user.passwordHash = nil
          user.phoneNumber = nil
          user.emailLinkSignin = nil
          user.federated = []
          user.validSince = FirebaseTime.seconds(timestamp)
        }
        user.displayName = response["displayName"]?.string
        user.photoUrl = response["photoUrl"]?.string
        user.emailVerified = true
      } else {
        isNewUser = true
        user = FirebaseUser(localId: project.newLocalId(), createdAt: FirebaseTime.milliseconds(timestamp))
        user.displayName = response["displayName"]?.string
        user.photoUrl = response["photoUrl"]?.string
        if !project.allowDuplicateEmails, let email { (user.email, user.emailVerified) = (email, emailVerified) }
      }
      let info = FirebaseProviderInfo(
        providerId: providerId, rawId: rawId, email: email, displayName: response["displayName"]?.string,
        photoUrl: response["photoUrl"]?.string, screenName: response["screenName"]?.string)
      if let index = user.federated.firstIndex(where: { $0.providerId == providerId }) {
        user.federated[index] = info
      } else {
        user.federated.append(info)
      }
      try project.save(user)
      response["localId"] = .string(user.localId)
      if isNewUser { response["isNewUser"] = true }
      if user.email == email { response["emailVerified"] = user.emailVerified.map(JSON.bool) ?? false }
      if !user.mfaInfo.isEmpty {
        return context.mfaPendingResponse(project, user, provider: providerId, base: response)
      }
      user.lastLoginAt = FirebaseTime.milliseconds(timestamp)
      try require(user.disabled != true, "USER_DISABLED")
      response.merge(try context.issueTokens(project, user, provider: providerId).tokens)
      return .object(response)
    }
  }

  /// `getNormalizedUri`: the query of `requestUri`, overwritten by `postBody`, then by the fragment.
  static func normalizedIdpParams(_ body: FirebaseBody) throws -> [String: String] {
    guard let requestUri = body.truthy("requestUri") else { throw FirebaseError.bad("MISSING_REQUEST_URI") }
    guard FirebaseRules.isAbsoluteURI(requestUri), let components = URLComponents(string: requestUri) else {
      throw FirebaseError.bad("INVALID_REQUEST_URI")
    }
    var params: [String: String] = [:]
    for item in FormCoding.decode(components.percentEncodedQuery ?? "") { params[item.name] = item.value }
    for item in FormCoding.decode(body.string("postBody") ?? "") { params[item.name] = item.value }
    for item in FormCoding.decode(components.percentEncodedFragment ?? "") { params[item.name] = item.value }
    return params
  }

  /// `parseClaims`: strict JSON, or the payload of any JWT; `sub` is required.
  static func idpClaims(_ token: String?) throws -> JSONObject? {
    guard let token else { return nil }
    let claims: JSONObject
    if token.hasPrefix("{") {
      guard let parsed = try? JSON.parse(token), let object = parsed.object else {
        throw FirebaseError.bad(
          "INVALID_IDP_RESPONSE : Unable to parse id_token: \(token) ((Auth Emulator failed to parse fake id_token as strict JSON.))"
        )
      }
      claims = object
    } else {
      guard let object = EmulatorJWT.decodePayload(token)?.object else { return nil }
      claims = object
    }
    guard let sub = claims["sub"], !sub.isNull else {
      throw FirebaseError.bad(
        "INVALID_IDP_RESPONSE : Invalid Idp Response: id_token missing required fields. "
          + "((Missing \"sub\" field. This field is required and must be a unique identifier.))")
    }
    guard sub.string != nil else {
      throw FirebaseError.bad("INVALID_IDP_RESPONSE : ((The \"sub\" field must be a string.))")
    }
    return claims
  }

  /// `fakeFetchUserInfoFromIdp`: the profile an IdP would have sent, from the token's claims.
  static func fakeIdpUserInfo(providerId: String, rawId: String, claims: JSONObject) -> JSONObject {
    let email = claims["email"]?.string.map(FirebaseRules.canonicalEmail)
    let verified = claims["email_verified"].map { $0.bool ?? ($0.string.map { !$0.isEmpty } ?? !$0.isNull) } ?? false
    var response = JSONObject()
    response["kind"] = "identitytoolkit#VerifyAssertionResponse"
    response["context"] = ""
    response["providerId"] = .string(providerId)
    if let name = claims["name"]?.string {
      response["displayName"] = .string(name)
      response["fullName"] = .string(name)
    }
    if let screenName = claims["screen_name"]?.string { response["screenName"] = .string(screenName) }
    if let email { response["email"] = .string(email) }
    response["emailVerified"] = .bool(verified)
    if let picture = claims["picture"]?.string { response["photoUrl"] = .string(picture) }
    var federatedId = rawId
    if providerId == "google.com" {
      federatedId = "https://accounts.google.com/" + rawId
      if let given = claims["given_name"]?.string { response["firstName"] = .string(given) }
      if let family = claims["family_name"]?.string { response["lastName"] = .string(family) }
      var info = JSONObject()
      info["granted_scopes"] = .string(
        "openid https://www.googleapis.com/auth/userinfo.profile"
          + (email != nil ? " https://www.googleapis.com/auth/userinfo.email" : ""))
      info["id"] = .string(rawId)
      for (key, claim) in [("name", "name"), ("given_name", "given_name"), ("family_name", "family_name")] {
        if let value = claims[claim], !value.isNull { info[key] = value }
      }
      info["verified_email"] = .bool(verified)
      info["locale"] = "en"
      if let email { info["email"] = .string(email) }
      if let picture = claims["picture"], !picture.isNull { info["picture"] = picture }
      response["rawUserInfo"] = .string(JSON.object(info).compactText)
    } else {
      response["rawUserInfo"] = .string(JSON.object(claims).compactText)
    }
    response["federatedId"] = .string(federatedId)
    return response
  }
}
