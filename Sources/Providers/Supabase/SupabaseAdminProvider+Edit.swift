import AuthCore
import Essentials
import JSONKit

/// `user set-email`, `user update`, and finding the account an e-mail change is pending to.
extension SupabaseAdminProvider {
  /// Accounts read at most when looking for a pending change (GoTrue's `filter` does not search
  /// `new_email`, so the list is read page by page).
  static let pendingScanBudget = 10_000

  package func setEmail(_ user: AdminUser, to email: String, confirmed: Bool) async throws -> AdminUser {
    var body = JSONObject([("email", .string(email.trimmingWhitespace.lowercased()))])
    if confirmed { body["email_confirm"] = true }
    return try await update(user, .object(body))
  }

  package func update(_ user: AdminUser, with changes: AccountUpdate) async throws -> AdminUser {
    var body = JSONObject()
    var metadata = changes.metadata
    if let name = changes.name {
      // As `signup --name` and `user create --name` store it.
      metadata["full_name"] = .string(name)
    }
    // GoTrue merges both objects key by key and removes the keys set to null.
    if !metadata.isEmpty { body["user_metadata"] = .object(metadata) }
    // Supabase has no separate custom claims: app_metadata is what goes into the access token.
    var appMetadata = changes.appMetadata
    for (key, value) in changes.claims.pairs { appMetadata[key] = value }
    if !appMetadata.isEmpty { body["app_metadata"] = .object(appMetadata) }
    // GoTrue takes the number with or without `+` and stores the digits.
    if let phone = changes.phone { body["phone"] = .string(phone) }
    guard !body.isEmpty else { return user }
    return try await update(user, .object(body))
  }

  package func accountChangingEmail(to email: String) async throws -> (user: AdminUser?, complete: Bool) {
    let wanted = email.trimmingWhitespace.lowercased()
    let perPage = 1000
    var page = 1
    var read = 0
    while read < Self.pendingScanBudget {
      let (json, response) = try await call(
        "GET", "/admin/users", query: [("page", String(page)), ("per_page", String(perPage))])
      guard let users = json["users"]?.array else { throw WireBody.missing("users", in: response) }
      if let hit = users.first(where: { $0["new_email"]?.string?.lowercased() == wanted }) {
        var user = try SupabaseAdminDecoding.user(hit, response: response, now: clock.now())
        user.pendingMail = await pendingMail(to: user.email)
        return (user, true)
      }
      read += users.count
      guard SupabaseAdminDecoding.hasNextPage(response, page: page, perPage: perPage, count: users.count) else {
        return (nil, true)
      }
      page += 1
    }
    return (nil, false)
  }

  /// authsh's emulator only (`GET /emulator/v1/limits` on a loopback host); nil elsewhere.
  package func signInLimits() async -> SignInLimitState? {
    guard let host = URL(string: endpoint)?.host, HostPolicy.isLoopback(host) else { return nil }
    let origin = endpoint.hasSuffix("/auth/v1") ? String(endpoint.dropLast("/auth/v1".count)) : endpoint
    guard let url = URL(string: origin + "/emulator/v1/limits"),
      let response = try? await client.send("GET", url, headers: [("Accept", "application/json")]),
      response.status == 200,
      let json = try? JSON.parse(bytes: response.body), let enforced = json["like_production"]?.bool
    else { return nil }
    var limited: [String: Int] = [:]
    for entry in json["limited"]?.array ?? [] {
      if let client = entry["client"]?.string { limited[client] = entry["retry_after_seconds"]?.int ?? 0 }
    }
    return SignInLimitState(enforced: enforced, limited: limited)
  }
}
