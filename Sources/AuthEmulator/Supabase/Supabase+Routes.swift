import HTTPServerKit

/// The routes of second factors, the audit trail, invitations and passwordless sign-in
/// (`api.go`), beside the ones `SupabaseAPI.route` lists.
extension SupabaseAPI {
  /// nil: not one of these paths; `.some(nil)`: known path, other method (405).
  static func accountRoute(method: String, path: String) -> Handler?? {
    switch (path, method) {
    case ("/factors", "POST"): return .some(SupabaseAPI.enrollFactor)
    case ("/admin/audit", "GET"): return .some(SupabaseAPI.adminAuditLog)
    case ("/invite", "POST"): return .some(SupabaseAPI.invite)
    case ("/otp", "POST"): return .some(SupabaseAPI.otp)
    case ("/factors", _), ("/admin/audit", _), ("/invite", _), ("/otp", _): return .some(nil)
    default: break
    }
    let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    // "/factors/{id}", "/factors/{id}/challenge", "/factors/{id}/verify"
    if parts.count >= 3, parts[1] == "factors", !parts[2].isEmpty {
      let id = parts[2]
      switch (parts.count, parts.count == 4 ? parts[3] : "", method) {
      case (3, _, "DELETE"): return .some { api in { try api.unenrollFactor($0, factorID: id) } }
      case (4, "challenge", "POST"): return .some { api in { try api.challengeFactor($0, factorID: id) } }
      case (4, "verify", "POST"): return .some { api in { try api.verifyFactor($0, factorID: id) } }
      case (3, _, _), (4, "challenge", _), (4, "verify", _): return .some(nil)
      default: return nil
      }
    }
    // "/admin/users/{id}/factors", "/admin/users/{id}/factors/{factor_id}"
    if parts.count >= 5, parts[1] == "admin", parts[2] == "users", !parts[3].isEmpty, parts[4] == "factors" {
      let userID = parts[3]
      if parts.count == 5 {
        return method == "GET" ? .some { api in { try api.adminListFactors($0, userID: userID) } } : .some(nil)
      }
      guard parts.count == 6, !parts[5].isEmpty else { return nil }
      let factorID = parts[5]
      switch method {
      case "DELETE": return .some { api in { try api.adminDeleteFactor($0, userID: userID, factorID: factorID) } }
      case "PUT": return .some { api in { try api.adminUpdateFactor($0, userID: userID, factorID: factorID) } }
      default: return .some(nil)
      }
    }
    return nil
  }
}
