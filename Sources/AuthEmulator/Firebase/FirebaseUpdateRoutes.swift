import Essentials
import JSONKit

/// `accounts:update` (`operations.ts` `setAccountInfoImpl`): profile, e-mail and password changes by
/// ID token or (admin) localId, and applying VERIFY_EMAIL / VERIFY_AND_CHANGE_EMAIL / RECOVER_EMAIL codes.
struct FirebaseUpdateRoutes: Sendable {
  let context: FirebaseContext

  func update(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    for field in ["provider", "upgradeToFederatedLogin"] where body.has(field) {
      throw FirebaseError.notImplemented("\(field) is not implemented yet.")
    }
    if call.privileged {
      try require(body.isTruthy("localId"), "MISSING_LOCAL_ID")
    } else {
      try require(
        body.isTruthy("idToken") || body.isTruthy("oobCode"), "INVALID_REQ_TYPE : Unsupported request parameters.")
      try require(!body.has("customAttributes"), "INSUFFICIENT_PERMISSION")
    }
    if let claims = body.truthy("customAttributes") { try Self.validateCustomClaims(claims) }
    let deleteAttributes = body.strings("deleteAttribute")
    for attribute in deleteAttributes where attribute == "PROVIDER" || attribute == "RAW_USER_INFO" {
      throw FirebaseError.notImplemented("deleteAttribute: \(attribute)")
    }
    let newHash = context.preHash(body.truthy("password"), projectId: call.projectId)
    let timestamp = context.now
    return try context.state.with(call.projectId) { project in
      if let code = body.truthy("oobCode") {
        return try applyOobCode(project, code: code)
      }
      var user: FirebaseUser
      var provider: String?
      if let idToken = body.truthy("idToken") {
        let parsed = try context.parseIdToken(project, idToken)
        (user, provider) = (parsed.user, parsed.token.provider)
        try require(!body.has("disableUser"), "OPERATION_NOT_ALLOWED")
      } else {
        guard let found = project.user(localId: body.truthy("localId") ?? "") else {
          throw FirebaseError.bad("USER_NOT_FOUND")
        }
        user = found
      }
      var newEmail: String?
      var emailChanged = false
      var credentialsChanged = false
      if let given = body.truthy("email") {
        try require(FirebaseRules.isValidEmail(given), "INVALID_EMAIL")
        let canonical = FirebaseRules.canonicalEmail(given)
        newEmail = canonical
        if canonical != user.email {
          try require(project.user(email: canonical) == nil, "EMAIL_EXISTS")
          if provider != FirebaseTokens.anonymousProvider, user.email != nil, user.initialEmail == nil {
            user.initialEmail = user.email
          }
          user.email = canonical
          user.emailVerified = false
          emailChanged = true
        }
      }
      if body.isTruthy("password") {
        guard let newHash else { throw FirebaseError.bad(FirebaseRules.weakPassword) }
        user.passwordHash = newHash
        user.passwordUpdatedAt = FirebaseTime.milliseconds(timestamp)
        provider = FirebaseTokens.passwordProvider
      }
      if body.isTruthy("password") || body.isTruthy("validSince") || emailChanged {
        user.validSince = FirebaseTime.seconds(timestamp)
        credentialsChanged = true
      }
      if let name = body.string("displayName") { user.displayName = name }
      if let photo = body.string("photoUrl") { user.photoUrl = photo }
      if call.privileged { try applyAdminFields(body, to: &user, project: project) }
      for attribute in deleteAttributes {
        switch attribute {
        case "DISPLAY_NAME": user.displayName = nil
        case "PHOTO_URL": user.photoUrl = nil
        case "PASSWORD": user.passwordHash = nil
        case "EMAIL": (user.email, user.emailVerified) = (nil, nil)
        default: break
        }
      }
      let deleteProviders = body.strings("deleteProvider")
      if deleteProviders.contains("password") { (user.email, user.emailVerified, user.passwordHash) = (nil, nil, nil) }
      if deleteProviders.contains("phone") { user.phoneNumber = nil }
      user.federated.removeAll { deleteProviders.contains($0.providerId) }
      if let mfa = body["mfa"] { try FirebaseMfaRoutes.applyMfaUpdate(mfa, to: &user) }
      try project.save(user)
      if emailChanged, provider != FirebaseTokens.anonymousProvider, let initialEmail = user.initialEmail {
        try context.createOob(
          project, request: call.request, email: initialEmail, newEmail: nil, requestType: "RECOVER_EMAIL")
      }
      var response = Self.updateResponse(user, newEmail: newEmail)
      if credentialsChanged, let provider {
        let issued = try context.issueTokens(project, user, provider: provider)
        response.merge(issued.tokens)
      }
      return .object(response)
    }
  }

  /// Admin-only fields: `disableUser`, `phoneNumber`, and copies of `emailVerified`,
  /// `customAttributes`, `createdAt`, `lastLoginAt`, `validSince`.
  private func applyAdminFields(_ body: FirebaseBody, to user: inout FirebaseUser, project: FirebaseProject) throws {
    if let disable = body.bool("disableUser") { user.disabled = disable }
    if let phone = body.truthy("phoneNumber"), phone != user.phoneNumber {
      try require(FirebaseRules.isValidPhoneNumber(phone), "INVALID_PHONE_NUMBER : Invalid format.")
      try require(project.user(phoneNumber: phone) == nil, "PHONE_NUMBER_EXISTS")
      user.phoneNumber = phone
    }
    if let verified = body.bool("emailVerified") { user.emailVerified = verified }
    if let claims = body.string("customAttributes") { user.customAttributes = claims }
    if let created = body.string("createdAt").flatMap(Int.init) { user.createdAt = created }
    if let login = body.string("lastLoginAt").flatMap(Int.init) { user.lastLoginAt = login }
    if let since = body.string("validSince").flatMap(Int.init) { user.validSince = since }
  }

  /// Applies an e-mail action code with `accounts:update {oobCode}` (no tokens are returned).
  private func applyOobCode(_ project: FirebaseProject, code: String) throws -> JSON {
    guard let oob = project.oob(code) else { throw FirebaseError.bad("INVALID_OOB_CODE") }
    var user: FirebaseUser
    var newEmail: String?
    switch oob.requestType {
    case "VERIFY_EMAIL":
      try project.deleteOob(code)
      guard let found = project.user(email: oob.email) else { throw FirebaseError.bad("INVALID_OOB_CODE") }
      user = found
      user.emailVerified = true
      user.email = oob.email
    case "VERIFY_AND_CHANGE_EMAIL":
      try project.deleteOob(code)
      guard let found = project.user(email: oob.email), let target = oob.newEmail else {
        throw FirebaseError.bad("INVALID_OOB_CODE")
      }
      try require(project.user(email: target) == nil, "EMAIL_EXISTS")
      user = found
      if target != user.email {
        user.email = target
        user.emailVerified = true
        newEmail = target
      }
    case "RECOVER_EMAIL":
      try project.deleteOob(code)
      guard let found = project.user(initialEmail: oob.email) else { throw FirebaseError.bad("INVALID_OOB_CODE") }
      try require(project.user(email: oob.email) == nil, "EMAIL_EXISTS")
      user = found
      if oob.email != user.email {
        user.email = oob.email
        user.emailVerified = true
      }
    default:
      throw FirebaseError.notImplemented(oob.requestType)
    }
    try project.save(user)
    return .object(Self.updateResponse(user, newEmail: newEmail))
  }

  private static func updateResponse(_ user: FirebaseUser, newEmail: String?) -> JSONObject {
    var response = JSONObject()
    response["kind"] = "identitytoolkit#SetAccountInfoResponse"
    response["localId"] = .string(user.localId)
    if let verified = user.emailVerified { response["emailVerified"] = .bool(verified) }
    response["providerUserInfo"] = .array(user.providerUserInfo)
    if let email = user.email { response["email"] = .string(email) }
    if let name = user.displayName { response["displayName"] = .string(name) }
    if let photo = user.photoUrl { response["photoUrl"] = .string(photo) }
    if let newEmail { response["newEmail"] = .string(newEmail) }
    if user.passwordHash != nil { response["passwordHash"] = .string(FirebaseUser.redactedPasswordHash) }
    return response
  }

  /// `validateSerializedCustomClaims`: ≤ 1000 characters, a JSON object, no reserved claim.
  static func validateCustomClaims(_ text: String) throws {
    try require(text.utf16.count <= 1000, "CLAIMS_TOO_LARGE")
    guard let parsed = try? JSON.parse(text), let object = parsed.object else {
      throw FirebaseError.bad("INVALID_CLAIMS")
    }
    for reserved in reservedClaims where object[reserved] != nil {
      throw FirebaseError.bad("FORBIDDEN_CLAIM : \(reserved)")
    }
  }

  static let reservedClaims = [
    "iss", "aud", "sub", "iat", "exp", "nbf", "jti", "nonce", "azp", "acr", "amr", "cnf", "auth_time",
    "firebase", "at_hash", "c_hash",
  ]
}
