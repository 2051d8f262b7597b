import Essentials
import JSONKit

/// The CSV files other tools write, read into portable records: firebase-tools' headerless
/// `auth:export --format csv` and a `\copy auth.users to … csv header` of GoTrue's table.
enum AccountCSVFormats {
  // MARK: firebase-tools (`firebase auth:export users.csv`)

  /// firebase-tools' positions: uid, email, emailVerified, passwordHash, salt, displayName,
  /// photoUrl, four fields (rawId, email, displayName, photoUrl) for each of google.com,
  /// facebook.com, twitter.com and github.com at 7/11/15/19, createdAt 23, lastSignedInAt 24,
  /// phoneNumber 25, disabled 26, customAttributes 27; newer versions add apple.com, microsoft.com,
  /// gc.apple.com, playgames.google.com, linkedin.com and yahoo.com at 28…51. Every row ends with a
  /// comma (one empty field more).
  static let firebaseFields = 28
  static let firebaseProviders: [(String, Int)] = [
    ("google.com", 7), ("facebook.com", 11), ("twitter.com", 15), ("github.com", 19), ("apple.com", 28),
    ("microsoft.com", 32), ("gc.apple.com", 36), ("playgames.google.com", 40), ("linkedin.com", 44), ("yahoo.com", 48),
  ]

  /// A first record that can only be firebase-tools' (no header: an id, an address or nothing,
  /// then `true`/`false`).
  static func isFirebaseRow(_ fields: [String]) -> Bool {
    fields.count >= firebaseFields && ["true", "false"].contains(fields[2]) && !fields[0].isEmpty
  }

  /// One row as the Firebase JSON record it stands for (then read like `{"users":[…]}`).
  static func firebaseJSON(_ fields: [String]) throws -> JSON {
    // 28 fields, plus the trailing comma's empty one; the newer layout 52 (+1).
    guard [firebaseFields, firebaseFields + 1, 52, 53].contains(fields.count) else {
      throw PortableAccountError("\(fields.count) fields where firebase-tools writes 28 or 52 (and a trailing comma)")
    }
    var user = JSONObject()
    func text(_ index: Int) -> JSON? { fields[index].isEmpty ? nil : .string(fields[index]) }
    user["localId"] = text(0)
    user["email"] = text(1)
    user["emailVerified"] = .bool(fields[2] == "true")
    user["passwordHash"] = text(3)
    user["salt"] = text(4)
    user["displayName"] = text(5)
    user["photoUrl"] = text(6)
    user["createdAt"] = text(23)
    user["lastSignedInAt"] = text(24)
    user["phoneNumber"] = text(25)
    if !fields[26].isEmpty { user["disabled"] = .bool(fields[26] == "true") }
    user["customAttributes"] = text(27)
    var providers: [JSON] = []
    for (provider, start) in firebaseProviders where start + 3 < fields.count && !fields[start].isEmpty {
      providers.append(
        .object(
          JSONObject([
            ("providerId", .string(provider)), ("rawId", .string(fields[start])), ("email", .string(fields[start + 1])),
            ("displayName", .string(fields[start + 2])),
          ])))
    }
    if !providers.isEmpty { user["providerUserInfo"] = .array(providers) }
    return .object(user)
  }

  // MARK: GoTrue's table (`\copy auth.users to 'users.csv' csv header`)

  /// A header that can only be `auth.users`'.
  static func isAuthUsersHeader(_ names: [String]) -> Bool {
    ["instance_id", "id", "email", "encrypted_password"].allSatisfy(names.contains)
  }

  /// One row of `auth.users` as a portable record; nil for a deleted account (it is not moved).
  static func authUsersAccount(_ header: [String], _ fields: [String]) throws -> PortableAccount? {
    var column: [String: String] = [:]
    for (name, value) in zip(header, fields) where !value.isEmpty { column[name] = value }
    if column["deleted_at"] != nil { return nil }
    var account = PortableAccount(id: column["id"], email: column["email"])
    account.source = "supabase"
    account.emailVerified = column["email_confirmed_at"] != nil
    // GoTrue keeps phones as digits without `+`.
    account.phone = column["phone"].map { $0.hasPrefix("+") ? $0 : "+" + $0 }
    // Only a confirmation time says the number was confirmed; GoTrue's table has the column since 2019.
    if account.phone != nil, header.contains("phone_confirmed_at") {
      account.phoneConfirmed = column["phone_confirmed_at"] != nil
    }
    account.createdAt = column["created_at"].flatMap(rfc3339)
    account.lastSignInAt = column["last_sign_in_at"].flatMap(rfc3339)
    switch column["banned_until"] {
    // PostgreSQL writes a ban without end as `infinity`: a ban for good, not none.
    case "infinity"?: account.disabled = true
    case "-infinity"?, nil: break
    case let text?:
      guard let until = rfc3339(text) else { throw PortableAccountError("banned_until '\(text)' is not a time") }
      account.bannedUntil = until
    }
    account.invitedAt = column["invited_at"].flatMap(rfc3339)
    func object(_ name: String) throws -> JSONObject? {
      guard let text = column[name] else { return nil }
      guard let object = (try? JSON.parse(text))?.object else {
        throw PortableAccountError("\(name) is not a JSON object")
      }
      return object
    }
    account.userMetadata = try object("raw_user_meta_data")
    account.appMetadata = try object("raw_app_meta_data")
    account.displayName = account.userMetadata?["full_name"]?.string ?? account.userMetadata?["name"]?.string
    account.providers = (account.appMetadata?["providers"]?.array ?? []).compactMap(\.string)
    account.photoURL = account.userMetadata?["avatar_url"]?.string
    if let hash = column["encrypted_password"] {
      account.passwordHash = hash
    } else if account.invitedAt != nil, column["email_confirmed_at"] == nil {
      // An invitation not yet accepted: there is no password to lose.
    } else if account.providers.contains("email") {
      account.passwordNote = "no password set (invited, or signs in by link or code)"
    }
    if column["is_sso_user"] == "true" { account.providers.append("sso") }
    return account
  }

  /// PostgreSQL's timestamp text (`2026-01-02 03:04:05.123456+00`) as RFC 3339; nil when it is none.
  static func rfc3339(_ text: String) -> String? {
    var value = text
    // `+00` (PostgreSQL's short offset) as `+00:00`.
    if let sign = value.utf8.dropFirst(19).lastIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }),
      value.utf8.distance(from: sign, to: value.utf8.endIndex) == 3
    {
      value += ":00"
    }
    return UnixTime.parseISO(value).map { CivilTime.iso8601(seconds: $0) }
  }
}
