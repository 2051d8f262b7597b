import Essentials
import HTTPServerKit
import JSONKit

/// The Secure Token endpoint and the emulator's own `/emulator/v1/projects/{id}/…` utilities.
extension FirebaseAPI {
  /// `securetoken.googleapis.com/v1/token` (`grantToken`): stateless refresh tokens that break only
  /// for a deleted or disabled user, another project, or a revocation (`validSince` after the
  /// token was issued, as production does; the official emulator never revokes). Answers in
  /// snake_case strings.
  func grantToken(_ parsed: FirebaseBody) throws -> JSON {
    guard mode.likeProduction else { return try grantTokenChecked(parsed) }
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
    let key = FirebaseProject.stateKey(projectId: state.defaultProjectId, tenantId: record.tenantId)
    return try state.with(key) { project in
      try require(record.projectId == project.projectId, "INVALID_REFRESH_TOKEN")
      guard let user = project.user(localId: record.localId) else { throw FirebaseError.bad("INVALID_REFRESH_TOKEN") }
      try require(user.disabled != true, "USER_DISABLED")
      if mode.likeProduction { try require(!Self.isRevoked(record, user), "TOKEN_EXPIRED") }
      let issued = try issueTokens(
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

  func emulatorEndpoint(_ endpoint: FirebaseRoute.EmulatorEndpoint, projectId: String, request: ServerRequest) throws
    -> JSON
  {
    switch endpoint {
    case .deleteAccounts:
      try state.with(projectId) { try $0.deleteAllAccounts() }
      return [:]
    case .oobCodes:
      return state.with(projectId) { project in ["oobCodes": .array(project.oobsInOrder.map(\.listJSON))] }
    case .verificationCodes:
      return state.with(projectId) { project in
        ["verificationCodes": .array(project.phoneCodesInOrder.map(\.listJSON))]
      }
    case .getConfig:
      return state.with(projectId) { Self.emulatorConfig($0) }
    case .patchConfig:
      var body = try FirebaseBody.parse(request)
      try body.validate([("signIn", .object), ("emailPrivacyConfig", .object)])
      var mask: [String] = []
      if body["signIn"]?["allowDuplicateEmails"] != nil { mask.append("signIn.allowDuplicateEmails") }
      if body["signIn"]?["email"]?["enabled"] != nil { mask.append("signIn.email.enabled") }
      if body["signIn"]?["email"]?["passwordRequired"] != nil { mask.append("signIn.email.passwordRequired") }
      if body["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"] != nil {
        mask.append("emailPrivacyConfig.enableImprovedEmailPrivacy")
      }
      return try state.with(projectId) { project in
        try Self.applyConfig(body, mask: mask, to: project)
        return Self.emulatorConfig(project)
      }
    }
  }
}
