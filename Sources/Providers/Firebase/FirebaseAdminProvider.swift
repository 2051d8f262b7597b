import AuthCore
import Essentials
import JSONKit

/// Firebase Auth's admin API: Identity Toolkit's project-scoped `projects/{id}/accounts:*` with an
/// OAuth bearer (a service account's access token, or `owner` on an emulator), the calls the
/// official Admin SDKs make.
package struct FirebaseAdminProvider: AdminProvider {
  package let kind = ProviderKind.firebase
  package let endpoint: String
  let tokens: any AccessTokenSource
  let client: WireClient
  let clock: any Clock
  let projectId: String?
  /// Every admin call goes to this tenant's users (`projects/{p}/tenants/{t}/accounts…`).
  let tenantId: String?
  let emulatorHost: String?
  /// Who the requests are sent as, for messages ("the service account x@y.iam.gserviceaccount.com").
  let principal: String
  /// Reads an emulator's outbox (`latestMail`).
  let mailbox: FirebaseProvider

  /// Accounts scanned at most by one filtered `listUsers` call (the list API has no filter).
  static let filterScanBudget = 10_000

  package init(
    target: Target, tokens: any AccessTokenSource, transport: any HTTPTransport, clock: any Clock,
    trace: (@Sendable (String) -> Void)?, projectId: String? = nil, principal: String? = nil
  ) {
    endpoint = target.url
    self.tokens = tokens
    client = WireClient(
      transport: transport, timeout: target.timeout, allowInsecureHTTP: target.allowInsecureHTTP, trace: trace)
    self.clock = clock
    let project = (target.projectId?.isEmpty == false ? target.projectId : nil) ?? projectId
    self.projectId = project
    tenantId = target.tenantId
    emulatorHost = target.firebaseEmulatorHost
    self.principal =
      principal ?? (target.firebaseEmulatorHost != nil ? "the emulator's owner credential" : "the admin credential")
    var mailTarget = target
    mailTarget.projectId = project
    mailbox = FirebaseProvider(target: mailTarget, transport: transport, clock: clock, trace: trace)
  }

  // MARK: - Reads

  package func user(_ reference: UserReference) async throws -> AdminUser? {
    guard let user = try await lookUp(reference) else { return nil }
    // Only an emulator shows a pending e-mail change (its out-of-band codes).
    return emulatorHost == nil ? user : withPendingChange(user, await pendingCodes())
  }

  package func accountForChange(_ reference: UserReference) async throws -> AdminUser? {
    switch reference {
    case .email(let email): return try await lookup(["email": .array([.string(email)])])
    case .id(let id): return try await lookup(["localId": .array([.string(id)])])
    case .phone(let number): return try await lookup(["phoneNumber": .array([.string(number)])])
    }
  }

  func lookUp(_ reference: UserReference) async throws -> AdminUser? {
    switch reference {
    case .email(let email):
      // On an emulator the outbox is read alongside the lookup (Firebase keeps e-mails lower-case).
      async let mail = emulatorHost == nil ? nil : try? latestMail(to: email.lowercased())
      guard var user = try await lookup(["email": .array([.string(email)])]) else { return nil }
      if user.email.lowercased() == email.lowercased() {
        user.pendingMail = await mail
      } else if emulatorHost != nil, !user.email.isEmpty {
        user.pendingMail = try? await latestMail(to: user.email)
      }
      return user
    case .id, .phone:
      guard var user = try await accountForChange(reference) else { return nil }
      if emulatorHost != nil, !user.email.isEmpty {
        user.pendingMail = try? await latestMail(to: user.email)
      }
      return user
    }
  }

  package func listUsers(_ query: UserListQuery) async throws -> UserPage {
    let limit = min(max(query.limit, 1), 1000)
    let filter = query.filter.flatMap { $0.trimmingWhitespace.isEmpty ? nil : $0.trimmingWhitespace.lowercased() }
    var token = query.pageToken.flatMap { $0.isEmpty ? nil : $0 }
    guard let filter else {
      let page = try await batchGet(maxResults: limit, pageToken: token)
      var next = page.next
      // A full page comes with a token even when nothing follows it: look one account ahead, so
      // the last page does not promise another that is empty.
      if let ahead = next, page.users.count >= limit, try await batchGet(maxResults: 1, pageToken: ahead).users.isEmpty
      {
        next = nil
      }
      return UserPage(users: page.users, total: await count(), nextPageToken: next)
    }
    // batchGet has no filter: read whole pages and keep the matches, so that a page token always
    // falls on a page boundary and no match is skipped (a page may hold up to 2×limit−1 matches).
    var matches: [AdminUser] = []
    var scanned = 0
    var pages = 0
    var seen: Set<String> = []
    repeat {
      if let most = query.maxPages, pages >= most {
        var stopped = UserPage(users: matches, total: nil, nextPageToken: token)
        stopped.stoppedScan = ScanProgress(pages: pages, scanned: scanned, matches: matches.count)
        return stopped
      }
      try Task.checkCancellation()
      let page = try await batchGet(maxResults: limit, pageToken: token)
      matches += page.users.filter { Self.matches($0, filter) }
      scanned += page.users.count
      pages += 1
      query.scanProgress?(ScanProgress(pages: pages, scanned: scanned, matches: matches.count))
      token = page.next
      // A server that hands back a token it gave before would keep this loop reading for ever.
      if let token, !seen.insert(token).inserted {
        throw AuthError(
          .malformedResponse,
          message: "The server repeated a page token after \(seen.count + 1) pages of accounts; stopped the scan.")
      }
    } while token != nil && matches.count < limit && scanned < Self.filterScanBudget
    return UserPage(users: matches, total: nil, nextPageToken: token)
  }

  static func matches(_ user: AdminUser, _ filter: String) -> Bool {
    user.email.lowercased().contains(filter) || (user.name?.lowercased().contains(filter) ?? false)
      || user.id.lowercased() == filter || (filter.hasPrefix("+") && user.phone?.contains(filter) == true)
  }

  package func settings() async throws -> ProjectSettings {
    // Firebase never requires a confirmed e-mail to sign in with a password.
    var settings = ProjectSettings(requiresEmailConfirmation: false)
    // The v2 project config says whether e-mail/password sign-in is on; an unreadable config
    // (no permission, an emulator that does not expose it) leaves it unknown.
    guard let url = try? configURL(),
      let (json, _) = try? await send("GET", url, body: nil, as: .settings)
    else { return settings }
    settings.passwordSignInEnabled = Self.passwordSignInEnabled(
      json, tenant: tenantId != nil, emulator: emulatorHost != nil)
    settings.totpEnabled = tenantId == nil ? Self.totpEnabled(json) : nil
    return settings
  }

  /// The project config's `mfa.providerConfigs[]` with a `totpProviderConfig` in state ENABLED or
  /// MANDATORY; a config without the section says nothing (and a tenant's is not read).
  static func totpEnabled(_ json: JSON) -> Bool? {
    guard let mfa = json["mfa"], mfa.object != nil else { return nil }
    return (mfa["providerConfigs"]?.array ?? []).contains { provider in
      provider["totpProviderConfig"] != nil && ["ENABLED", "MANDATORY"].contains(provider["state"]?.string ?? "")
    }
  }

  /// Google's APIs leave false booleans out, so a missing one is false where the API documents
  /// false as its default. A tenant: `allowPasswordSignup`. The project: `signIn.email.enabled`;
  /// `passwordRequired` does not turn passwords off (false only lets e-mail links sign in too).
  /// The whole `email` object is left out when both are false; the official emulator never serves
  /// it, so on an emulator host its absence says nothing.
  static func passwordSignInEnabled(_ json: JSON, tenant: Bool, emulator: Bool) -> Bool? {
    if tenant { return json["allowPasswordSignup"]?.bool ?? false }
    if let email = json["signIn"]?["email"] { return email["enabled"]?.bool ?? false }
    return emulator || json["signIn"] == nil ? nil : false
  }

  package func latestMail(to email: String) async throws -> InboxMessage? {
    guard emulatorHost != nil else { return nil }
    return try await mailbox.latestMail(to: email)
  }

  // MARK: - Links and mail

  package func link(_ kind: AdminLinkKind, for user: AdminUser) async throws -> AdminLink {
    let requestType: String
    switch kind {
    case .recovery: requestType = "PASSWORD_RESET"
    case .confirm: requestType = "VERIFY_EMAIL"
    case .invite:
      throw AuthError(
        .notSupported, message: "Firebase has no invitations: an account made for someone is an ordinary account.",
        hint: "Run `user link recovery \(user.email)` and hand the link over: following it sets their password.")
    }
    let body: JSON = ["requestType": .string(requestType), "email": .string(user.email), "returnOobLink": true]
    let (json, response) = try await post("accounts:sendOobCode", body, as: .oob)
    guard let link = json["oobLink"]?.string, !link.isEmpty else { throw WireBody.missing("oobLink", in: response) }
    let code = json["oobCode"]?.string ?? URLComponents(string: link)?.queryItems?.first { $0.name == "oobCode" }?.value
    return AdminLink(kind: kind, email: json["email"]?.string ?? user.email, url: link, code: code)
  }

  /// Identity Toolkit sends a confirmation mail only on the user's own request (with their ID
  /// token); the admin API generates the link instead (`returnOobLink`), for you to hand over.
  package func resendConfirmation(_ user: AdminUser) async throws {
    if let refusal = unsupported(.resendConfirmation, for: user) { throw refusal }
  }

  package func unsupported(_ change: AdminChange, for user: AdminUser) -> AuthError? {
    switch change {
    case .resendConfirmation:
      return AuthError(
        .notSupported,
        message:
          "Firebase sends a confirmation e-mail only when the user asks from the app; the admin API cannot send one.",
        hint:
          "Run `user link confirm \(user.email)` and hand the link over, or `user confirm \(user.email)` to mark the e-mail confirmed."
      )
    case .disable(seconds: .some):
      return AuthError(
        .notSupported, message: "Firebase has no timed disable: an account stays disabled until enabled again.",
        hint: "Run `user disable \(user.email)` without --until, and `user enable \(user.email)` later.")
    case .delete(soft: true):
      return AuthError(
        .notSupported, message: "Firebase has no soft delete: a deleted account is gone.",
        hint: "Run `user disable \(user.email)` to keep the account but stop its sign-ins.")
    case .userMetadata:
      return AuthError(
        .notSupported, message: "Firebase accounts have no metadata of their own (Supabase's user_metadata).",
        hint: "Use --name for the display name, or --claims for custom claims (they are in every ID token).")
    default:
      return nil
    }
  }

  // MARK: - Changes

  package func confirmEmail(_ user: AdminUser) async throws -> AdminUser {
    try await update(user, ["emailVerified": true])
  }

  package func disable(_ user: AdminUser, forSeconds seconds: Int?) async throws -> AdminUser {
    if let refusal = unsupported(.disable(seconds: seconds), for: user) { throw refusal }
    return try await update(user, ["disableUser": true])
  }

  package func enable(_ user: AdminUser) async throws -> AdminUser {
    try await update(user, ["disableUser": false])
  }

  package func setPassword(_ user: AdminUser, to password: String) async throws -> AdminUser {
    try await update(user, ["password": .string(password)])
  }

  package func createUser(email: String, password: String?, confirmed: Bool, name: String?) async throws -> AdminUser {
    var body = JSONObject([("email", .string(email)), ("emailVerified", .bool(confirmed))])
    if let password { body["password"] = .string(password) }
    if let name, !name.isEmpty { body["displayName"] = .string(name) }
    let (json, response) = try await post("accounts", .object(body), as: .create)
    guard let localId = json["localId"]?.string, !localId.isEmpty else {
      throw WireBody.missing("localId", in: response)
    }
    guard let created = try await lookup(["localId": .array([.string(localId)])]) else {
      throw AuthError(.malformedResponse, detail: "the account \(localId) was created but a lookup did not find it")
    }
    return created
  }

  package func delete(_ user: AdminUser, soft: Bool) async throws {
    if let refusal = unsupported(.delete(soft: soft), for: user) { throw refusal }
    _ = try await post("accounts:delete", ["localId": .string(user.id)], as: .delete)
  }

  /// Production ends refresh tokens at `validSince`. An emulator only does when it says so: authsh's
  /// in the like-production mode (`GET /emulator/v1/config`); the official one never does.
  package func signOutEndsRefreshTokens() async -> Bool {
    guard let host = emulatorHost else { return true }
    guard let url = URL(string: "http://\(host)/emulator/v1/config"),
      let response = try? await client.send("GET", url, headers: [("Accept", "application/json")]),
      response.status == 200,
      let json = try? JSON.parse(bytes: response.body)
    else { return false }
    return json["like_production"]?.bool ?? false
  }

  /// Sets `validSince` to now: every refresh token is revoked. ID tokens already issued stay valid
  /// until they expire (up to 1 h) unless the app verifies them with `checkRevoked`.
  package func signOut(_ user: AdminUser) async throws {
    _ = try await post(
      "accounts:update", ["localId": .string(user.id), "validSince": .string(String(clock.unixNow))], as: .update)
  }
}
