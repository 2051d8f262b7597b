import AuthCore
import JSONKit

/// The SELECT over GoTrue's tables, built from the columns this database has (GoTrue's schema
/// grew over the years: `banned_until`, `is_anonymous`, `deleted_at` and the MFA tables came
/// later; `identities.id` became `provider_id`). Every value comes back as text.
struct AuthUsersQuery: Sendable {
  var userColumns: Set<String>
  var identityColumns: Set<String>
  var hasFactors: Bool

  static let note = "GoTrue's auth.users table"

  /// Reads which tables and columns exist; `config_error` when there is no `auth.users`.
  static func inspect(_ connection: PqConnection, url: DatabaseURL) async throws -> AuthUsersQuery {
    let found = try await connection.execute(
      """
      SELECT table_name::text, column_name::text FROM information_schema.columns
      WHERE table_schema = 'auth' AND table_name IN ('users', 'identities', 'mfa_factors')
      """)
    var columns: [String: Set<String>] = [:]
    for row in found.rows where row.count == 2 {
      if let table = row[0], let column = row[1] { columns[table, default: []].insert(column) }
    }
    let users = columns["users"] ?? []
    guard users.contains("id"), users.contains("email") else {
      throw AuthError(
        .configError,
        message:
          "The database \(url.display) has no auth.users table that \(url.user) can read: is it a Supabase project's database?",
        providerCode: "42P01",
        hint:
          "Use the project's connection string (Supabase dashboard: Connect), as a role that may read the auth schema (postgres)."
      )
    }
    return AuthUsersQuery(
      userColumns: users, identityColumns: columns["identities"] ?? [],
      hasFactors: !(columns["mfa_factors"] ?? []).isEmpty)
  }

  func column(_ name: String, else fallback: String = "NULL") -> String {
    userColumns.contains(name) ? "u.\(name)" : fallback
  }

  static func time(_ expression: String) -> String {
    "to_char(\(expression) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"
  }

  var identities: String {
    guard identityColumns.contains("user_id") else { return "'[]'" }
    let subject = identityColumns.contains("provider_id") ? "i.provider_id" : "i.id"
    return """
      (SELECT coalesce(json_agg(json_build_object('provider', i.provider, 'id', \(subject), \
      'email', i.identity_data->>'email') ORDER BY i.created_at, i.provider), '[]') \
      FROM auth.identities i WHERE i.user_id = u.id)::text
      """
  }

  var factors: String {
    guard hasFactors else { return "'[]'" }
    return """
      (SELECT coalesce(json_agg(json_build_object('id', f.id, 'type', f.factor_type, \
      'friendly_name', f.friendly_name) ORDER BY f.created_at), '[]') \
      FROM auth.mfa_factors f WHERE f.user_id = u.id AND f.status::text = 'verified')::text
      """
  }

  /// Accounts with an id after `token`, in id order; soft-deleted accounts are left out. The SQL
  /// and its parameters ($1, $2: the token and the page size, never spliced into the text).
  func page(after token: String?, size: Int) -> (sql: String, parameters: [String?]) {
    let select = [
      "u.id::text", "u.email::text", column("encrypted_password") + "::text", Self.time(column("email_confirmed_at")),
      column("phone") + "::text", Self.time(column("banned_until")), Self.time(column("created_at")),
      Self.time(column("last_sign_in_at")), column("raw_user_meta_data") + "::text",
      column("raw_app_meta_data") + "::text",
      column("is_anonymous", else: "false") + "::text", identities, factors,
      "coalesce(" + column("banned_until") + " > now(), false)::text",
      Self.time(column("phone_confirmed_at")), Self.time(column("invited_at")),
    ]
    var conditions: [String] = []
    if userColumns.contains("deleted_at") { conditions.append("u.deleted_at IS NULL") }
    var parameters: [String?] = []
    if let token {
      parameters.append(token)
      conditions.append("u.id > $1::uuid")
    }
    parameters.append(String(size))
    let limit = "$\(parameters.count)::bigint"
    let sql =
      "SELECT " + select.joined(separator: ", ") + " FROM auth.users u"
      + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
      + " ORDER BY u.id LIMIT \(limit)"
    return (sql, parameters)
  }

  /// One row of `page` as a portable record.
  static func account(_ row: [String?]) throws -> PortableAccount {
    func text(_ index: Int) throws -> String? {
      guard row.indices.contains(index) else {
        throw AuthError(.malformedResponse, message: "auth.users answered a row of \(row.count) columns.")
      }
      return row[index].flatMap { $0.isEmpty ? nil : $0 }
    }
    func json(_ index: Int) throws -> JSON? { try text(index).flatMap { try? JSON.parse($0) } }
    guard let id = try text(0) else {
      throw AuthError(.malformedResponse, message: "auth.users has a row without an id.")
    }
    let userMetadata = try json(8)
    var appMetadata = try json(9)
    let providers = appMetadata?["providers"]?.array?.compactMap(\.string) ?? []
    if var object = appMetadata?.object {
      // GoTrue's own bookkeeping, rebuilt by the target from the identities.
      object["provider"] = nil
      object["providers"] = nil
      appMetadata = object.isEmpty ? nil : .object(object)
    }
    let identities = (try json(11)?.array ?? []).compactMap { item -> PortableIdentity? in
      guard let provider = item["provider"]?.string else { return nil }
      return PortableIdentity(provider: provider, id: item["id"]?.string, email: item["email"]?.string)
    }
    let factors = (try json(12)?.array ?? []).compactMap { item -> PortableFactor? in
      guard let factorID = item["id"]?.string else { return nil }
      return PortableFactor(
        id: factorID, type: item["type"]?.string ?? "totp", friendlyName: item["friendly_name"]?.string)
    }
    let bannedUntil = try text(5)
    let banned = try text(13) == "true"
    let hash = try text(2)
    let phone = try text(4)
    let emailConfirmedAt = try text(3)
    // Past the columns of older layouts: a row without them says nothing of either.
    let phoneConfirmedAt = row.count > 14 ? try text(14) : nil
    let invitedAt = row.count > 15 ? try text(15) : nil
    return PortableAccount(
      id: id, email: try text(1), emailVerified: emailConfirmedAt != nil, phone: phone,
      displayName: userMetadata?["full_name"]?.string ?? userMetadata?["name"]?.string, disabled: banned,
      bannedUntil: banned ? bannedUntil : nil, createdAt: try text(6), lastSignInAt: try text(7),
      userMetadata: userMetadata, appMetadata: appMetadata,
      providers: providers.isEmpty ? Array(Set(identities.map(\.provider))).sorted() : providers,
      identities: identities, factors: factors, source: .supabase, passwordHash: hash,
      phoneConfirmed: phone == nil ? nil : phoneConfirmedAt != nil, photoURL: userMetadata?["avatar_url"]?.string,
      invitedAt: hash == nil && emailConfirmedAt == nil ? invitedAt : nil)
  }
}
