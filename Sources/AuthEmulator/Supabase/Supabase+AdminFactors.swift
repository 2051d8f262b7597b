import HTTPServerKit
import JSONKit

/// `/admin/users/{id}/factors[/{factor_id}]` (`admin.go`): list, delete ("lost my phone") and rename.
extension SupabaseAPI {
  /// `loadUser` by a path segment: 404 `validation_failed` / `user_not_found`.
  func adminUser(id raw: String) throws -> SBUser {
    let id = raw.lowercased()
    guard GoTrueRules.isUUID(id) else { throw GoTrueError.notFound("validation_failed", "user_id must be an UUID") }
    guard let user = state.read({ $0.users[id] }) else {
      throw GoTrueError.notFound("user_not_found", "User not found")
    }
    return user
  }

  func adminListFactors(_ request: ServerRequest, userID: String) throws -> ServerResponse {
    try requireAdmin(request)
    let user = try adminUser(id: userID)
    return json(.array(user.factors.map(\.wire)))
  }

  func adminDeleteFactor(_ request: ServerRequest, userID: String, factorID raw: String) throws -> ServerResponse {
    try requireAdmin(request)
    let target = try adminUser(id: userID)
    let factorID = try Self.factorID(raw, of: target)
    let now = self.now
    let ip = clientIP(request)
    let deleted = try state.transaction { data -> SBFactor in
      guard var user = data.users[target.id], let factor = user.factors.first(where: { $0.id == factorID }) else {
        throw GoTrueError.notFound("mfa_factor_not_found", "Factor not found")
      }
      // GoTrue records this one with the user as the actor.
      data.recordAudit(
        "factor_deleted", user: user, ip: ip,
        traits: ["user_id": .string(user.id), "factor_id": .string(factorID)], at: now)
      user.factors.removeAll { $0.id == factorID }
      data.saveUser(user)
      data.downgradeSessions(ofFactor: factorID, userID: user.id, now: now)
      return factor
    }
    return json(deleted.wire)
  }

  func adminUpdateFactor(_ request: ServerRequest, userID: String, factorID raw: String) throws -> ServerResponse {
    let role = try requireAdmin(request)
    let target = try adminUser(id: userID)
    let factorID = try Self.factorID(raw, of: target)
    let params = try RequestParams(request)
    let friendlyName = try params.string("friendly_name")
    let now = self.now
    let factor = try state.transaction { data -> SBFactor in
      guard var user = data.users[target.id], let index = user.factors.firstIndex(where: { $0.id == factorID }) else {
        throw GoTrueError.notFound("mfa_factor_not_found", "Factor not found")
      }
      if !friendlyName.isEmpty {
        user.factors[index].friendlyName = friendlyName
        user.factors[index].updatedAt = now
        data.saveUser(user)
      }
      data.recordAudit(
        "factor_updated", actor: .admin(role: role),
        traits: [
          "user_id": .string(user.id), "factor_id": .string(factorID),
          "factor_type": .string(user.factors[index].factorType),
        ], at: now)
      return user.factors[index]
    }
    return json(factor.wire)
  }
}
