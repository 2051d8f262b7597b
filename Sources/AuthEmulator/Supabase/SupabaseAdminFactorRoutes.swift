import HTTPServerKit
import JSONKit

/// `/admin/users/{id}/factors[/{factor_id}]` (`admin.go`): list, delete ("lost my phone") and rename.
struct SupabaseAdminFactorRoutes: Sendable {
  let context: GoTrueContext

  /// `loadUser` by a path segment: 404 `validation_failed` / `user_not_found`.
  func adminUser(_ segment: GoTrueIDSegment) throws -> SBUser {
    let id = try segment.uuid()
    guard let user = context.state.read({ $0.users[id] }) else {
      throw GoTrueError.notFound("user_not_found", "User not found")
    }
    return user
  }

  func adminListFactors(_ request: ServerRequest, _ path: UserIDPath) throws -> ServerResponse {
    try context.requireAdmin(request)
    let user = try adminUser(path.userID)
    return context.json(.array(user.factors.map(\.wire)))
  }

  func adminDeleteFactor(_ request: ServerRequest, _ path: UserFactorPath) throws -> ServerResponse {
    try context.requireAdmin(request)
    let target = try adminUser(path.userID)
    let factorID = try SupabaseFactorRoutes.factorID(path.factorID, of: target)
    let now = context.now
    let ip = context.clientIP(request)
    let deleted = try context.state.transaction { data -> SBFactor in
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
    return context.json(deleted.wire)
  }

  func adminUpdateFactor(_ request: ServerRequest, _ path: UserFactorPath) throws -> ServerResponse {
    let role = try context.requireAdmin(request)
    let target = try adminUser(path.userID)
    let factorID = try SupabaseFactorRoutes.factorID(path.factorID, of: target)
    let params = try RequestParams(request)
    let friendlyName = try params.string("friendly_name")
    let now = context.now
    let factor = try context.state.transaction { data -> SBFactor in
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
    return context.json(factor.wire)
  }
}
