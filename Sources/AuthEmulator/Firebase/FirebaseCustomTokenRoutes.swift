import Essentials
import HTTPServerKit
import JSONKit

/// `accounts:signInWithCustomToken` as the official emulator serves it: the token an app server
/// minted with an Admin SDK (`create_custom_token`; for an emulator the SDKs sign nothing, `alg:
/// none`), or its claims as strict JSON. The signature is never checked; the audience, `uid`,
/// developer `claims` and a tenant's `tenant_id` are. An unknown `uid` makes the account.
struct FirebaseCustomTokenRoutes: Sendable {
  let context: FirebaseContext

  /// The audience of every custom token.
  static let customTokenAudience =
    "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"

  func signInWithCustomToken(_ call: FirebaseCall) throws -> JSON {
    guard let token = call.body.truthy("token") else { throw FirebaseError.bad("MISSING_CUSTOM_TOKEN") }
    let payload = try Self.customTokenPayload(token, tenantId: call.tenantId)
    guard let localId = Self.identifier(payload["uid"]) ?? Self.identifier(payload["user_id"]) else {
      throw FirebaseError.bad("MISSING_IDENTIFIER")
    }
    var extraClaims = JSONObject()
    if let claims = payload["claims"], !claims.isNull {
      try FirebaseUpdateRoutes.validateCustomClaims(claims.compactText)
      extraClaims = claims.object ?? JSONObject()
    }
    let timestamp = context.now
    return try context.state.with(call.projectId) { project in
      var user: FirebaseUser
      let isNewUser: Bool
      if let existing = project.user(localId: localId) {
        try require(existing.disabled != true, "USER_DISABLED")
        user = existing
        isNewUser = false
      } else {
        user = FirebaseUser(localId: localId, createdAt: FirebaseTime.milliseconds(timestamp))
        isNewUser = true
      }
      user.lastLoginAt = FirebaseTime.milliseconds(timestamp)
      var response = JSONObject([
        ("kind", "identitytoolkit#VerifyCustomTokenResponse"), ("isNewUser", .bool(isNewUser)),
      ])
      response.merge(try context.issueTokens(project, user, provider: "custom", extraClaims: extraClaims).tokens)
      return .object(response)
    }
  }

  /// The token's claims: strict JSON, or the payload of a JWT for this audience (and tenant).
  static func customTokenPayload(_ token: String, tenantId: String?) throws -> JSONObject {
    if token.hasPrefix("{") {
      guard let parsed = try? JSON.parse(token), let object = parsed.object else {
        throw FirebaseError.bad(
          "INVALID_CUSTOM_TOKEN : ((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))")
      }
      return object
    }
    let payload = EmulatorJWT.decodePayload(token)?.object
    if let tenantId { try require(payload?["tenant_id"]?.string == tenantId, "TENANT_ID_MISMATCH") }
    guard let payload else {
      throw FirebaseError.bad("INVALID_CUSTOM_TOKEN : Invalid assertion format. 3 dot separated segments required.")
    }
    try require(
      payload["aud"]?.string == customTokenAudience,
      "INVALID_CUSTOM_TOKEN : ((Invalid audience. Expected \(customTokenAudience).))")
    return payload
  }

  /// A `uid` as the emulator takes it: a non-empty string, or a number or boolean as its text.
  static func identifier(_ value: JSON?) -> String? {
    switch value {
    case .string(let text)?: return text.isEmpty ? nil : text
    case .bool(let flag)?: return flag ? "true" : "false"
    case let number? where number.intOrNumericString != nil: return number.compactText
    default: return nil
    }
  }
}
