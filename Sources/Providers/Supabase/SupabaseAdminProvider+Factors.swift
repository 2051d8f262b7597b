import AuthCore
import Essentials
import JSONKit

/// "Lost my phone" (`DELETE /admin/users/{id}/factors/{factor_id}`) and the account's own trail
/// (`GET /admin/audit`).
extension SupabaseAdminProvider {
  /// Pages of the audit trail read at most for one `user history`.
  static let historyPages = 20

  package func resetFactors(_ user: AdminUser, factorId: String?) async throws -> AdminUser {
    let doomed = try Self.factorsToRemove(user, factorId: factorId)
    for factor in doomed {
      do {
        _ = try await call("DELETE", "/admin/users/\(user.id)/factors/\(factor.id)")
      } catch let error as AuthError where error.status == 404 && error.providerCode == "mfa_factor_not_found" {
        continue  // removed meanwhile (by the user, or another operator): what was asked is done
      }
    }
    guard var updated = try await lookUp(.id(user.id)) else {
      throw AuthError(.userNotFound, message: "No account for \(user.email.isEmpty ? user.id : user.email).")
    }
    updated.pendingMail = await pendingMail(to: updated.email)
    return updated
  }

  /// The factors `user mfa reset` removes: the one named (by id or name), or every one.
  static func factorsToRemove(_ user: AdminUser, factorId: String?) throws -> [AuthFactor] {
    guard let wanted = factorId?.trimmingWhitespace, !wanted.isEmpty else { return user.factors }
    let match = user.factors.filter { $0.id.lowercased() == wanted.lowercased() || $0.name == wanted }
    guard !match.isEmpty else {
      let known = user.factors.map { $0.id + ($0.name.map { " (\($0))" } ?? "") }
      throw AuthError(
        .invalidRequest,
        message: "\(user.email.isEmpty ? user.id : user.email) has no second factor '\(wanted)'.",
        hint: known.isEmpty ? "It has no second factor at all." : "Its factors: " + known.joined(separator: ", ") + ".")
    }
    return match
  }

  package func history(_ user: AdminUser, since: Int?) async throws -> [AccountEvent] {
    var events: [AccountEvent] = []
    var page = 1
    let email = user.email.lowercased()
    while page <= Self.historyPages {
      var query = [("page", String(page)), ("per_page", "100")]
      // `author:` is a substring match on the actor's e-mail or name: the exact account is picked below.
      if !email.isEmpty { query.append(("query", "author:" + email)) }
      let (json, response) = try await callArray("GET", "/admin/audit", query: query)
      var older = false
      for entry in json {
        guard let event = Self.event(entry), Self.concerns(entry, user: user, email: email) else { continue }
        if let since, let time = UnixTime.parseISO(event.time), time < since {
          older = true
          continue
        }
        events.append(event)
      }
      guard !older, SupabaseAdminDecoding.hasNextPage(response, page: page, perPage: 100, count: json.count) else {
        break
      }
      page += 1
    }
    return events
  }

  static func concerns(_ entry: JSON, user: AdminUser, email: String) -> Bool {
    let payload = entry["payload"]
    if payload?["actor_id"]?.string == user.id { return true }
    if !email.isEmpty, payload?["actor_username"]?.string?.lowercased() == email { return true }
    return payload?["traits"]?["user_id"]?.string == user.id
  }

  /// One entry: `{id, payload:{action, log_type, actor_username, traits}, created_at, ip_address}`.
  static func event(_ entry: JSON) -> AccountEvent? {
    guard let payload = entry["payload"], let action = payload["action"]?.string,
      let time = SupabaseAdminDecoding.time(entry["created_at"])
    else { return nil }
    let actor =
      payload["actor_username"]?.string.flatMap { $0.isEmpty ? nil : $0 }
      ?? payload["actor_name"]?.string.flatMap { $0.isEmpty ? nil : $0 }
    let traits = payload["traits"].flatMap { $0.object == nil || $0.object?.isEmpty == true ? nil : $0 }
    return AccountEvent(
      time: time, action: action, type: payload["log_type"]?.string.flatMap { $0.isEmpty ? nil : $0 }, actor: actor,
      ipAddress: entry["ip_address"]?.string.flatMap { $0.isEmpty ? nil : $0 }, traits: traits)
  }
}
