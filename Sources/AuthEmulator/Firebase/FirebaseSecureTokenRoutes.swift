import Essentials
import HTTPServerKit
import JSONKit

/// The Secure Token endpoint, `securetoken.googleapis.com/v1/token`: a refresh token for a new ID token.
struct FirebaseSecureTokenRoutes: Sendable {
  let context: FirebaseContext

  /// `securetoken.googleapis.com/v1/token` (`grantToken`): stateless refresh tokens that break only
  /// for a deleted or disabled user, another project, or a revocation (`validSince` after the
  /// token was issued, as production does; the official emulator never revokes). Answers in
  /// snake_case strings.
  func grantToken(_ parsed: FirebaseBody) throws -> JSON {
    guard context.mode.likeProduction else { return try grantTokenChecked(parsed) }
    do {
      return try grantTokenChecked(parsed)
    } catch let error as FirebaseError where error.status == nil {
      throw FirebaseError.secureToken(error.message)  // production's envelope
    }
  }

  private func grantTokenChecked(_ parsed: FirebaseBody) throws -> JSON {
    var body = parsed
    try body.validate([("grantType", .string), ("refreshToken", .string), ("code", .string)])
    // The record is decoded before the grant-type checks (`server.ts` tenant routing).
    let record = try body.truthy("refreshToken").map(FirebaseTokens.decodeRefreshToken)
    guard let grantType = body.truthy("grantType") else { throw FirebaseError.bad("MISSING_GRANT_TYPE") }
    try require(grantType == "refresh_token", "INVALID_GRANT_TYPE")
    guard let record else { throw FirebaseError.bad("MISSING_REFRESH_TOKEN") }
    // A tenant's refresh token goes to the tenant's user store (`server.ts` routing).
    let key = FirebaseProject.stateKey(projectId: context.state.defaultProjectId, tenantId: record.tenantId)
    return try context.state.with(key) { project in
      try require(record.projectId == project.projectId, "INVALID_REFRESH_TOKEN")
      guard let user = project.user(localId: record.localId) else { throw FirebaseError.bad("INVALID_REFRESH_TOKEN") }
      try require(user.disabled != true, "USER_DISABLED")
      if context.mode.likeProduction { try require(!Self.isRevoked(record, user), "TOKEN_EXPIRED") }
      let issued = try context.issueTokens(
        project, user, provider: record.provider, extraClaims: record.extraClaims,
        secondFactor: record.secondFactor)
      let idToken = issued.tokens["idToken"] ?? .null
      var response = JSONObject()
      response["id_token"] = idToken
      response["access_token"] = idToken
      response["expires_in"] = issued.tokens["expiresIn"] ?? .null
      response["refresh_token"] = issued.tokens["refreshToken"] ?? .null
      response["token_type"] = "Bearer"
      response["user_id"] = .string(user.localId)
      // The project *number*; the official emulator hard-codes it.
      response["project_id"] = "12345"
      return .object(response)
    }
  }

  /// Production ends refresh tokens minted before a password change or a revocation
  /// (`validSince`); the official emulator never does.
  static func isRevoked(_ record: FirebaseTokens.RefreshRecord, _ user: FirebaseUser) -> Bool {
    guard let issuedAtMs = record.issuedAtMs else { return false }
    if let changed = user.passwordUpdatedAt, issuedAtMs < changed { return true }
    if let since = user.validSince, issuedAtMs / 1000 < since { return true }
    return false
  }

}
