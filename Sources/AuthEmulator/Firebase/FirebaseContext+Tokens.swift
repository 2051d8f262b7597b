import Essentials
import HTTPServerKit
import JSONKit

/// Tokens and ID-token checks shared by the operations (`operations.ts` `issueTokens`,
/// `parseIdToken`), and the answer of a sign-in that needs its second factor.
extension FirebaseContext {
  /// Enumeration protection: the project's setting, or always like production.
  func emailPrivacy(_ project: FirebaseProject) -> Bool { project.emailPrivacy || mode.likeProduction }

  /// `parseIdToken`: undecodable → `INVALID_ID_TOKEN`; unknown user → `USER_NOT_FOUND`;
  /// `iat < validSince` → `TOKEN_EXPIRED`; disabled → `USER_DISABLED`. No signature or `exp` check.
  func parseIdToken(_ project: FirebaseProject, _ token: String) throws -> (
    user: FirebaseUser, token: FirebaseTokens.DecodedIdToken
  ) {
    guard let decoded = FirebaseTokens.decodeIdToken(token) else { throw FirebaseError.bad("INVALID_ID_TOKEN") }
    try require(decoded.payload["firebase"]?["tenant"]?.string == project.tenantId, "TENANT_ID_MISMATCH")
    guard let user = project.user(localId: decoded.userId) else { throw FirebaseError.bad("USER_NOT_FOUND") }
    try require(user.validSince.map { decoded.issuedAt >= $0 } ?? true, "TOKEN_EXPIRED")
    try require(user.disabled != true, "USER_DISABLED")
    return (user, decoded)
  }

  /// `issueTokens`: records the refresh time, then mints an ID token and a refresh token.
  func issueTokens(
    _ project: FirebaseProject, _ user: FirebaseUser, provider: String,
    extraClaims: JSONObject = JSONObject(), secondFactor: FirebaseSecondFactor? = nil
  ) throws
    -> (user: FirebaseUser, tokens: JSONObject)
  {
    var user = user
    let issuedAt = now
    user.lastRefreshAt = issuedAt
    try project.save(user)
    let claims = FirebaseTokens.idTokenClaims(
      for: user, projectId: project.projectId, provider: provider, now: issuedAt,
      lifetime: config.tokenLifetime, extraClaims: extraClaims,
      secondFactor: secondFactor, tenantId: project.tenantId)
    var tokens = JSONObject()
    tokens["idToken"] = .string(EmulatorJWT.unsigned(.object(claims)))
    tokens["refreshToken"] = .string(
      FirebaseTokens.refreshToken(
        localId: user.localId, provider: provider,
        projectId: project.projectId,
        issuedAtMs: FirebaseTime.milliseconds(issuedAt), extraClaims: extraClaims,
        secondFactor: secondFactor, tenantId: project.tenantId))
    tokens["expiresIn"] = .string(String(config.tokenLifetime))
    return (user, tokens)
  }

  /// The "second step due" answer of a first-factor sign-in (`mfaPending`): 200, no tokens.
  func mfaPendingResponse(_ project: FirebaseProject, _ user: FirebaseUser, provider: String, base: JSONObject) -> JSON
  {
    var record = JSONObject()
    record["_AuthEmulatorMfaPendingCredential"] = "DO NOT MODIFY"
    record["localId"] = .string(user.localId)
    record["signInProvider"] = .string(provider)
    record["projectId"] = .string(project.projectId)
    var response = base
    response["mfaPendingCredential"] = .string(Base64.encode(JSON.object(record).bytes))
    response["mfaInfo"] = .array(user.mfaInfo.map(\.json))
    return .object(response)
  }
}
