import HTTPServerKit
import JSONKit

/// `/admin/users` (`admin.go`, `pagination.go`) and `/admin/audit` (`audit.go`): the admin API's
/// accounts and audit trail. Every handler starts with `requireAdmin`.
struct SupabaseAdminRoutes: Sendable {
  let context: GoTrueContext

  // MARK: - GET /admin/users

  func adminListUsers(_ request: ServerRequest) throws -> ServerResponse {
    try context.requireAdmin(request)
    let page = try Pagination(request)
    let filter = request.query("filter") ?? ""
    let ascending = (request.query("sort") ?? "").lowercased().hasSuffix("asc")
    // `{"users":[…],"aud":"authenticated"}` from the cached entries of the page.
    let (total, body) = context.state.read { data -> (Int, [UInt8]) in
      let (total, pageUsers) = data.listUsers(
        filter: filter, ascending: ascending, offset: page.offset, limit: page.perPage)
      var body = Array(#"{"users":["#.utf8)
      for (index, user) in pageUsers.enumerated() {
        if index > 0 { body.append(UInt8(ascii: ",")) }
        body += data.userIndex.listEntry(user)
      }
      body += Array(#"],"aud":"authenticated"}"#.utf8)
      return (total, body)
    }
    return page.response(request, total: total, body: body)
  }

  // MARK: - /admin/users/{id}

  /// `loadUser`: 404 `validation_failed` for a non-UUID, 404 `user_not_found` for an unknown id.
  func adminTarget(_ path: UserIDPath) throws -> String {
    let id = try path.userID.uuid()
    guard context.state.read({ $0.users[id] }) != nil else {
      throw GoTrueError.notFound("user_not_found", "User not found")
    }
    return id
  }

  func adminGetUser(_ request: ServerRequest, _ path: UserIDPath) throws -> ServerResponse {
    try context.requireAdmin(request)
    let id = try adminTarget(path)
    guard let user = context.state.read({ $0.users[id] }) else {
      throw GoTrueError.notFound("user_not_found", "User not found")
    }
    return context.json(.object(user.wireObject()))
  }

  func adminDeleteUser(_ request: ServerRequest, _ path: UserIDPath) throws -> ServerResponse {
    let adminRole = try context.requireAdmin(request)
    let id = try adminTarget(path)
    let soft = request.body.isEmpty ? false : try RequestParams(request).bool("should_soft_delete")
    let now = context.now
    try context.state.transaction { data in
      if let user = data.users[id] {
        data.recordAudit("user_deleted", actor: .admin(role: adminRole), traits: Self.auditTraits(user), at: now)
      }
      if soft { data.softDeleteUser(id: id, at: now) } else { data.deleteUser(id: id) }
    }
    return context.json([:])
  }

  // MARK: - POST /admin/users

  func adminCreateUser(_ request: ServerRequest) throws -> ServerResponse {
    let adminRole = try context.requireAdmin(request)
    let params = try RequestParams(request)
    let rawEmail = try params.string("email")
    let phone = try params.string("phone")
    let password = try params.optionalString("password")
    let passwordHash = try params.string("password_hash")
    if rawEmail.isEmpty && phone.isEmpty {
      throw GoTrueError.validation("Cannot create a user without either an email or phone")
    }
    let email = rawEmail.isEmpty ? "" : try GoTrueRules.validateEmail(rawEmail)
    let number = phone.isEmpty ? "" : try GoTrueRules.validatePhone(phone)
    let phoneConfirm = try params.bool("phone_confirm")
    if !email.isEmpty, context.state.read({ $0.user(email: email) }) != nil { throw GoTrueError.duplicateEmail }
    if !number.isEmpty, context.state.read({ $0.user(phone: number) }) != nil { throw GoTrueError.duplicatePhone }
    if password != nil && !passwordHash.isEmpty {
      throw GoTrueError.validation("Only a password or a password hash should be provided")
    }
    // GoTrue (`NewUserWithPasswordHash`) answers a hash it cannot parse with a 500.
    if !passwordHash.isEmpty, !GoTrueRules.isAcceptedPasswordHash(passwordHash) {
      throw GoTrueError.internal("Error creating user")
    }
    if let password, password.utf8.count > GoTrueRules.maximumPasswordBytes {
      throw GoTrueError.validation("bcrypt: password length exceeds 72 bytes")
    }
    var id = EmulatorRandom.uuid()
    let customID = try params.string("id")
    if !customID.isEmpty {
      guard GoTrueRules.isUUID(customID.lowercased()) else {
        throw GoTrueError.validation("ID must conform to the uuid v4 format")
      }
      guard customID != "00000000-0000-0000-0000-000000000000" else {
        throw GoTrueError.validation("ID cannot be a nil uuid")
      }
      id = customID.lowercased()
    }
    let banUntil = try banDeadline(params)
    let appMetadata = try params.object("app_metadata")
    let userMetadata = try params.object("user_metadata") ?? JSONObject()
    let role = try params.string("role")
    let emailConfirm = try params.bool("email_confirm")
    let hash: String
    if !passwordHash.isEmpty {
      hash = passwordHash
    } else {
      // No password, or an empty one: a random one nobody knows (GoTrue never stores "").
      let given = password.flatMap { $0.isEmpty ? nil : $0 }
      hash = PasswordHasher.hash(
        given ?? EmulatorRandom.refreshToken() + EmulatorRandom.uuid(), cost: context.config.bcryptCost)
    }
    let now = context.now
    let user = try context.state.transaction { data -> SBUser in
      if data.users[id] != nil || (!email.isEmpty && data.user(email: email) != nil) {
        throw GoTrueError.duplicateEmail
      }
      if !number.isEmpty, data.user(phone: number) != nil { throw GoTrueError.duplicatePhone }
      var user = SBUser(
        id: id, email: email, passwordHash: hash,
        appMetadata: email.isEmpty ? JSONObject([("provider", "phone"), ("providers", [])]) : SBUser.emailAppMetadata,
        userMetadata: userMetadata.sortedByKey, createdAt: now, updatedAt: now)
      if !email.isEmpty { user.identity = SBIdentity.email(userID: id, email: email, data: JSONObject(), now: now) }
      if !number.isEmpty { user.setPhone(number, confirmed: phoneConfirm, at: now) }
      if !role.isEmpty { user.role = role }
      if let appMetadata { user.appMetadata = user.appMetadata.merging(appMetadata) }
      if emailConfirm { user.confirm(at: now) }
      if let banUntil { user.bannedUntil = banUntil(now) }
      data.recordAudit(
        "user_signedup", actor: .admin(role: adminRole), traits: Self.auditTraits(user, provider: "email"), at: now)
      data.saveUser(user)
      return user
    }
    return context.json(.object(user.wireObject()))
  }

  /// The traits of GoTrue's admin audit entries.
  static func auditTraits(_ user: SBUser, provider: String? = nil) -> JSON {
    var traits = JSONObject([
      ("user_id", .string(user.id)), ("user_email", .string(user.email)), ("user_phone", .string(user.phone)),
    ])
    if let provider { traits["provider"] = .string(provider) }
    return .object(traits)
  }

  // MARK: - PUT /admin/users/{id}

  func adminUpdateUser(_ request: ServerRequest, _ path: UserIDPath) throws -> ServerResponse {
    let adminRole = try context.requireAdmin(request)
    let id = try adminTarget(path)
    let params = try RequestParams(request)
    let rawEmail = try params.string("email")
    let email = rawEmail.isEmpty ? "" : try GoTrueRules.validateEmail(rawEmail)
    let rawPhone = try params.string("phone")
    let number = rawPhone.isEmpty ? "" : try GoTrueRules.validatePhone(rawPhone)
    let phoneConfirm = try params.bool("phone_confirm")
    let banUntil = try banDeadline(params)
    let password = try params.optionalString("password")
    if let password { try GoTrueRules.checkPasswordStrength(password) }
    let newHash = password.map { PasswordHasher.hash($0, cost: context.config.bcryptCost) }
    let role = try params.string("role")
    let emailConfirm = try params.bool("email_confirm")
    let appMetadata = try params.object("app_metadata")
    let userMetadata = try params.object("user_metadata")
    let now = context.now
    let user = try context.state.transaction { data -> SBUser in
      guard var user = data.users[id] else { throw GoTrueError.notFound("user_not_found", "User not found") }
      if !email.isEmpty, let other = data.user(email: email), other.id != id { throw GoTrueError.duplicateEmail }
      if !role.isEmpty { user.role = role }
      if emailConfirm { user.confirm(at: now) }
      if let newHash {
        user.setPassword(hash: newHash, at: now)
        for session in data.sessions(ofUser: id) { data.deleteSession(id: session.id) }
      }
      if !email.isEmpty {
        user.email = email
        user.identity?.data["email"] = .string(email)
        user.identity?.data["email_verified"] = .bool(emailConfirm)
        user.identity?.updatedAt = now
      }
      if !number.isEmpty {
        if let other = data.user(phone: number), other.id != id { throw GoTrueError.duplicatePhone }
        user.setPhone(number, confirmed: phoneConfirm, at: now)
      } else if phoneConfirm, !user.phone.isEmpty {
        user.phoneConfirmedAt = now
      }
      if let appMetadata { user.appMetadata = user.appMetadata.merging(appMetadata) }
      if let userMetadata { user.userMetadata = user.userMetadata.merging(userMetadata) }
      if let banUntil { user.bannedUntil = banUntil(now) }
      user.updatedAt = now
      data.recordAudit("user_modified", actor: .admin(role: adminRole), traits: Self.auditTraits(user), at: now)
      data.saveUser(user)
      return user
    }
    return context.json(.object(user.wireObject()))
  }

  /// `ban_duration`: a Go duration (`"24h"`, `"1h30m"`) or `"none"`; returns the deadline maker
  /// (nil deadline = not banned), or nil when the field is absent.
  private func banDeadline(_ params: RequestParams) throws -> (@Sendable (Micros) -> Micros?)? {
    let text = try params.string("ban_duration")
    guard !text.isEmpty else { return nil }
    if text == "none" { return { _ in nil } }
    guard let duration = GoTrueRules.parseGoDuration(text) else {
      throw GoTrueError.validation(
        "invalid format for ban duration: time: invalid duration \(JSON.string(text).compactText)")
    }
    return { now in duration == 0 ? nil : now + duration }
  }

  // MARK: - GET /admin/audit

  /// `GET /admin/audit?page&per_page&query=author:EMAIL|action:ACTION|type:TYPE` (`audit.go`).
  func adminAuditLog(_ request: ServerRequest) throws -> ServerResponse {
    try context.requireAdmin(request)
    let page = try Pagination(request)
    var columns: [String] = []
    var value = ""
    if let query = request.query("query"), !query.isEmpty {
      let parts = query.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      let known = ["author": ["actor_username", "actor_name"], "action": ["action"], "type": ["log_type"]]
      guard parts.count == 2, let mapped = known[String(parts[0])] else {
        throw GoTrueError.validation("Invalid query scope: \(query)")
      }
      columns = mapped
      value = String(parts[1])
    }
    let (total, body) = context.state.read { data -> (Int, [UInt8]) in
      let matches = data.auditEntries(columns: columns, value: value)
      let slice = page.offset < matches.count ? Array(matches[page.offset...].prefix(page.perPage)) : []
      return (matches.count, JSON.array(slice.map(\.wire)).bytes)
    }
    return page.response(request, total: total, body: body)
  }

}
