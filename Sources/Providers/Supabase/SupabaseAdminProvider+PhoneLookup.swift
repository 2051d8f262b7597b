import AuthCore
import Essentials
import JSONKit

/// Look-ups by phone number. GoTrue's admin API has neither a lookup by phone nor a filter on it
/// (`filter` matches the e-mail and `full_name` only), and it stores the number without `+`: the
/// accounts are read a page at a time and the number is matched here.
extension SupabaseAdminProvider {
  /// The account with `number` (E.164), or nil after the last page proves there is none.
  func lookUp(phone number: String, reload: Bool) async throws -> AdminUser? {
    let digits = String(number.drop { $0 == "+" })
    var page = 1
    while true {
      let (json, response) = try await call(
        "GET", "/admin/users", query: [("page", String(page)), ("per_page", String(Self.lookupPageSize))])
      guard let users = json["users"]?.array else { throw WireBody.missing("users", in: response) }
      if let hit = users.first(where: { $0["phone"]?.string == digits }) {
        if reload, let id = hit["id"]?.string, let loaded = try await lookUp(.id(id)) { return loaded }
        return try SupabaseAdminDecoding.user(hit, response: response, now: clock.now())
      }
      guard SupabaseAdminDecoding.hasNextPage(response, page: page, perPage: Self.lookupPageSize, count: users.count)
      else { return nil }
      guard page < Self.lookupPageLimit, !users.isEmpty else {
        throw AuthError(
          .providerError,
          message:
            "Could not determine whether \(number) has an account: the server kept answering more pages after \(page * Self.lookupPageSize) accounts.",
          status: response.status)
      }
      try Task.checkCancellation()
      page += 1
    }
  }

  /// `user list --filter +1555…`: the accounts whose number contains the filter's digits, read a
  /// page of `limit` at a time from the page token on (so a token always falls on a page
  /// boundary), until `limit` match, the accounts end, `--max-pages` or the scan's budget.
  func listUsers(phone filter: String, _ query: UserListQuery, perPage: Int, from first: Int) async throws -> UserPage {
    let digits = String(filter.drop { $0 == "+" })
    var matches: [AdminUser] = []
    var page = first
    var pages = 0
    var scanned = 0
    let now = clock.now()
    while true {
      if let most = query.maxPages, pages >= most {
        var stopped = UserPage(users: matches, total: nil, nextPageToken: String(page))
        stopped.stoppedScan = ScanProgress(pages: pages, scanned: scanned, matches: matches.count)
        return stopped
      }
      try Task.checkCancellation()
      let (json, response) = try await call(
        "GET", "/admin/users", query: [("page", String(page)), ("per_page", String(perPage))])
      guard let users = json["users"]?.array else { throw WireBody.missing("users", in: response) }
      for user in users where user["phone"]?.string?.contains(digits) == true {
        matches.append(try SupabaseAdminDecoding.user(user, response: response, now: now))
      }
      scanned += users.count
      pages += 1
      query.scanProgress?(ScanProgress(pages: pages, scanned: scanned, matches: matches.count))
      let more = SupabaseAdminDecoding.hasNextPage(response, page: page, perPage: perPage, count: users.count)
      page += 1
      guard more, !users.isEmpty, matches.count < query.limit, scanned < Self.phoneScanBudget else {
        return UserPage(users: matches, total: nil, nextPageToken: more && !users.isEmpty ? String(page) : nil)
      }
    }
  }

  /// Accounts one `user list --filter +…` reads at most before it hands back a page token.
  static let phoneScanBudget = 10_000
}
