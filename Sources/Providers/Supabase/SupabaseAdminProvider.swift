import AuthCore
import Essentials
import JSONKit

/// Supabase Auth's admin API (`/auth/v1/admin/*`) with a service_role key or a secret key.
/// The account-changing calls are in `SupabaseAdminProvider+Actions.swift`.
package struct SupabaseAdminProvider: AdminProvider {
  package let kind = ProviderKind.supabase
  /// The Auth API base, e.g. `https://abcd.supabase.co/auth/v1`.
  package let endpoint: String
  let credential: AdminCredential
  /// The project's anon (publishable) key, for `/settings` (public; needs no admin key).
  let anonKey: String
  let client: WireClient
  let clock: any Clock
  let outbox = OutboxProbe()

  package init(
    target: Target, credential: AdminCredential, transport: any HTTPTransport, clock: any Clock,
    trace: (@Sendable (String) -> Void)?
  ) {
    endpoint = target.url
    self.credential = credential
    anonKey = target.key
    client = WireClient(
      transport: transport, timeout: target.timeout, allowInsecureHTTP: target.allowInsecureHTTP, trace: trace)
    self.clock = clock
  }

  // MARK: - Lookup

  package func user(_ reference: UserReference) async throws -> AdminUser? {
    if case .email(let email) = reference {
      // The outbox is asked alongside the lookup: one round trip instead of two for `--from FILE`.
      async let mail = pendingMail(to: email.lowercased())
      guard var user = try await lookUp(reference) else { return nil }
      user.pendingMail = await mail
      return user
    }
    guard var user = try await lookUp(reference) else { return nil }
    user.pendingMail = await pendingMail(to: user.email)
    return user
  }

  package func accountForChange(_ reference: UserReference) async throws -> AdminUser? {
    try await lookUp(reference, reload: false)
  }

  /// `reload`: an account found by e-mail is read again by id for its identities and factors.
  func lookUp(_ reference: UserReference, reload: Bool = true) async throws -> AdminUser? {
    switch reference {
    case .id(let id):
      // GoTrue answers 404 `validation_failed` ("user_id must be an UUID") for anything that is not
      // a UUID: such an id names no account. 32 hex digits without hyphens are a UUID to it too.
      guard let uuid = UUID(uuidString: id) ?? Self.hyphenated(id) else { return nil }
      do {
        let (json, response) = try await call("GET", "/admin/users/" + uuid.uuidString.lowercased())
        // A soft-deleted account keeps its row (e-mail obfuscated, `deleted_at` set): it comes back
        // with `deletedAt`, for `diagnose` to say so; the change commands refuse it.
        return try SupabaseAdminDecoding.user(json, response: response, now: clock.now())
      } catch let error as AuthError
        where error.status == 404 && (error.code == .userNotFound || error.providerCode == "validation_failed")
      {
        // Only GoTrue's own "no such user": a 404 page from a wrong URL stays a config_error.
        return nil
      }
    case .phone(let number):
      return try await lookUp(phone: number, reload: reload)
    case .email(let email):
      // GoTrue has no lookup by e-mail: `filter` is a substring search (`email LIKE %filter%` or
      // `full_name ILIKE %filter%`, in which `_` matches any character), so several accounts can
      // come back; the exact address (case-insensitive) is picked from them. E-mails are stored in
      // lower case and the e-mail match is case-sensitive, hence the lower-cased filter.
      // Every page is read until the account is found or the server says there is no more: only
      // the last page proves there is no such account (5,000 other addresses may contain it).
      let wanted = email.lowercased()
      var page = 1
      while true {
        let (json, response) = try await call(
          "GET", "/admin/users",
          query: [("page", String(page)), ("per_page", String(Self.lookupPageSize)), ("filter", wanted)])
        guard let users = json["users"]?.array else { throw WireBody.missing("users", in: response) }
        if let hit = users.first(where: { $0["email"]?.string?.lowercased() == wanted }) {
          // The list loads neither identities nor factors (`identities: null`): read the account by id.
          if reload, let id = hit["id"]?.string, let loaded = try await lookUp(.id(id)) { return loaded }
          return try SupabaseAdminDecoding.user(hit, response: response, now: clock.now())
        }
        guard SupabaseAdminDecoding.hasNextPage(response, page: page, perPage: Self.lookupPageSize, count: users.count)
        else { return nil }
        guard page < Self.lookupPageLimit, !users.isEmpty else {
          throw AuthError(
            .providerError,
            message:
              "Could not determine whether \(email) has an account: more than \(page * Self.lookupPageSize) accounts contain the address and the server kept answering more.",
            status: response.status)
        }
        try Task.checkCancellation()
        page += 1
      }
    }
  }

  /// Accounts per page of an e-mail lookup (a page of GoTrue users stays well under the 4 MB a
  /// response may have).
  static let lookupPageSize = 500
  /// Pages an e-mail lookup reads at most (a million accounts containing the address) before it
  /// says it could not tell.
  static let lookupPageLimit = 2_000

  static func hyphenated(_ text: String) -> UUID? {
    let digits = Array(text)
    guard digits.count == 32, digits.allSatisfy(\.isHexDigit) else { return nil }
    let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }
    return UUID(uuidString: groups.joined(separator: "-"))
  }

  /// The latest mail an emulator "sent" to `email`: only asked of a loopback host (an emulator),
  /// and never a reason for a lookup to fail.
  func pendingMail(to email: String) async -> InboxMessage? {
    guard !email.isEmpty, !outbox.absent, let host = URL(string: endpoint)?.host, HostPolicy.isLoopback(host) else {
      return nil
    }
    do {
      return try await latestMail(to: email)
    } catch let error as AuthError where error.code == .notSupported {
      // A local Supabase stack (`supabase start`) is loopback too, and has no outbox: ask once.
      outbox.absent = true
      return nil
    } catch {
      return nil
    }
  }

  package func latestMail(to email: String) async throws -> InboxMessage? {
    let origin = endpoint.hasSuffix("/auth/v1") ? String(endpoint.dropLast("/auth/v1".count)) : endpoint
    return try await EmulatorOutbox(client: client).latest(origin: origin, email: email, side: "supabase")
  }

  // MARK: - List

  package func listUsers(_ query: UserListQuery) async throws -> UserPage {
    var page = 1
    if let token = query.pageToken?.trimmingWhitespace, !token.isEmpty {
      guard let number = Int(token), number >= 1, number <= 1_000_000_000 else {
        throw AuthError(
          .usage, message: "--page-token takes the token `user list` printed (a page number), not '\(token)'.")
      }
      page = number
    }
    let perPage = min(max(query.limit, 1), 1000)
    if let filter = query.filter, let number = UserReference.e164(filter.trimmingWhitespace) {
      return try await listUsers(phone: number, query, perPage: perPage, from: page)
    }
    // GoTrue's default order is newest first (`created_at desc`).
    var items = [("page", String(page)), ("per_page", String(perPage))]
    // Lower-cased: GoTrue matches e-mails (stored in lower case) with a case-sensitive LIKE and
    // `full_name` with ILIKE, so `--filter Ada` finds ada@example.com too.
    if let filter = query.filter, !filter.isEmpty { items.append(("filter", filter.lowercased())) }
    let (json, response) = try await call("GET", "/admin/users", query: items)
    guard let users = json["users"]?.array else { throw WireBody.missing("users", in: response) }
    let now = clock.now()
    let decoded = try users.map { try SupabaseAdminDecoding.user($0, response: response, now: now) }
    let total = response.header("X-Total-Count").flatMap { Int($0.trimmingWhitespace) }.flatMap { $0 >= 0 ? $0 : nil }
    let next = SupabaseAdminDecoding.hasNextPage(response, page: page, perPage: perPage, count: users.count)
    return UserPage(users: decoded, total: total, nextPageToken: next ? String(page + 1) : nil)
  }

  // MARK: - Wire

  /// Who a call is sent as: the admin credential, or the public anon key (`/settings`).
  enum Caller { case admin, anon }

  /// One GoTrue call with the official clients' headers; JSON in and out (an object), errors mapped.
  func call(
    _ method: String, _ path: String, query: [(String, String)] = [], body: JSON? = nil, as caller: Caller = .admin
  ) async throws -> (JSON, HTTPResponse) {
    let (json, response) = try await send(method, path, query: query, body: body, as: caller)
    guard json.object != nil else { throw WireBody.missing("object", in: response) }
    return (json, response)
  }

  /// The same for an answer that is a JSON array (`/admin/audit`).
  func callArray(_ method: String, _ path: String, query: [(String, String)] = []) async throws -> (
    [JSON], HTTPResponse
  ) {
    let (json, response) = try await send(method, path, query: query, body: nil, as: .admin)
    guard let array = json.array else { throw WireBody.missing("array", in: response) }
    return (array, response)
  }

  func send(
    _ method: String, _ path: String, query: [(String, String)], body: JSON?, as caller: Caller
  ) async throws -> (JSON, HTTPResponse) {
    let projectURL = endpoint.hasSuffix("/auth/v1") ? String(endpoint.dropLast("/auth/v1".count)) : endpoint
    if let problem = EndpointCheck.problem(projectURL, what: "The Supabase URL") { throw problem }
    guard var components = URLComponents(string: endpoint + path) else {
      throw AuthError(.configError, message: "The Supabase URL '\(endpoint)' is not a valid URL.")
    }
    if !query.isEmpty {
      components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
      // `+` in an address must arrive as a plus, not a space.
      components.percentEncodedQuery = components.percentEncodedQuery?.replacingAll("+", with: "%2B")
    }
    guard let url = components.url else {
      throw AuthError(.configError, message: "The Supabase URL '\(endpoint)' is not a valid URL.")
    }
    let anon = caller == .anon && !anonKey.isEmpty
    var headers =
      anon ? [("apikey", anonKey), ("Authorization", "Bearer " + anonKey)] : SupabaseAdminErrors.headers(credential)
    headers += [
      ("X-Supabase-Api-Version", "2024-01-01"), ("X-Client-Info", "authsh/\(AuthshVersion.current)"),
      ("Accept", "application/json"),
    ]
    if body != nil { headers.append(("Content-Type", "application/json;charset=UTF-8")) }
    let response = try await client.send(method, url, headers: headers, body: body?.bytes)
    guard (200..<300).contains(response.status) else {
      throw anon
        ? GoTrueErrorMapping.error(from: response, call: .other)
        : SupabaseAdminErrors.error(from: response, credential: credential)
    }
    if response.status == 204 || response.body.isEmpty { return (.object(JSONObject()), response) }
    return (try WireBody.json(response), response)
  }
}

/// Remembers that a loopback server has no emulator outbox, so `user show` of many accounts
/// against a local Supabase stack does not ask for each.
final class OutboxProbe: Sendable {
  private let isAbsent = Guarded(false)
  var absent: Bool {
    get { isAbsent[\.self] }
    set { isAbsent[\.self] = newValue }
  }
}
