import Essentials
import JSONKit

/// How `user export` writes the records: the text before the first, each record, between two, after the last.
package enum ExportFormat: String, Sendable, CaseIterable {
  /// One portable record (JSON) per line.
  case jsonl
  /// The record's scalar fields as columns under a header row; nested ones as JSON text.
  case csv
  /// What `firebase auth:import` reads: `{"users":[…]}`, one account per line.
  case firebase

  package var header: String {
    switch self {
    case .jsonl: return ""
    case .csv: return PortableAccount.keys.joined(separator: ",") + "\n"
    case .firebase: return "{\"users\":[\n"
    }
  }

  package var footer: String { self == .firebase ? "\n]}\n" : "" }

  /// One account, with what goes before it (`first`: nothing has been written yet).
  package func record(_ account: PortableAccount, first: Bool) -> String {
    switch self {
    case .jsonl: return account.json.compactText + "\n"
    case .csv:
      return PortableAccount.keys.map { CSVField.quote(CSVField.text(account.value(of: $0))) }.joined(separator: ",")
        + "\n"
    case .firebase: return (first ? "" : ",\n") + FirebaseImportRecord.json(account).compactText
    }
  }
}

/// RFC 4180 fields.
package enum CSVField {
  /// A value as a cell: text as it is, null empty, anything else as JSON.
  package static func text(_ value: JSON) -> String {
    switch value {
    case .string(let text): return text
    case .null: return ""
    default: return value.compactText
    }
  }

  /// Quoted when it holds a comma, a quote, a line break or leading/trailing spaces.
  package static func quote(_ text: String) -> String {
    guard
      text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || text.hasPrefix(" ")
        || text.hasSuffix(" ")
    else { return text }
    return "\"" + text.replacingAll("\"", with: "\"\"") + "\""
  }
}

/// A portable record as one user of the Firebase CLI's `auth:import` JSON file: `passwordHash`
/// and `salt` in base64 (from a `$fbscrypt$` hash; a bcrypt hash as the base64 of its text, for
/// `--hash-algo BCRYPT`); the hash parameters are not in it (as with the Firebase CLI).
package enum FirebaseImportRecord {
  package static func json(_ account: PortableAccount) -> JSON {
    var object = JSONObject([("localId", .optional(account.id))])
    if let email = account.email { object["email"] = .string(email) }
    object["emailVerified"] = .bool(account.emailVerified ?? false)
    if let hash = account.passwordHash {
      if let parts = FbscryptParts(hash) {
        object["passwordHash"] = .string(parts.hash)
        object["salt"] = .string(parts.salt)
      } else if PasswordHashString.identifiesItself(hash) {
        // bcrypt and argon2 as the base64 of their text: a reader tells them from scrypt by it.
        object["passwordHash"] = .string(Base64.encode(Array(hash.utf8)))
      }
    }
    if let phone = account.phone.flatMap(PortableAccount.e164), account.phoneConfirmed == true {
      object["phoneNumber"] = .string(phone)
    }
    if let photo = account.photoURL { object["photoUrl"] = .string(photo) }
    if let factors = account.factors {
      object["mfaInfo"] = .array(
        factors.map { factor in
          var info = JSONObject([("mfaEnrollmentId", .string(factor.id))])
          if let name = factor.friendlyName { info["displayName"] = .string(name) }
          info[factor.type == "phone" ? "phoneInfo" : "totpInfo"] =
            factor.type == "phone" ? .string("") : .object(JSONObject())
          return .object(info)
        })
    }
    if let name = account.displayName { object["displayName"] = .string(name) }
    object["disabled"] = .bool(account.disabled ?? false)
    if let created = account.createdAt.flatMap(UnixMillis.from) { object["createdAt"] = .string(created) }
    if let last = account.lastSignInAt.flatMap(UnixMillis.from) { object["lastSignedInAt"] = .string(last) }
    if let claims = account.appMetadata?["claims"] ?? account.appMetadata.map(JSON.object),
      claims.object?.isEmpty == false
    {
      object["customAttributes"] = .string(claims.compactText)
    }
    let infos = (account.identities ?? []).compactMap { identity -> JSON? in
      // firebase-tools refuses a whole file with a provider id outside its list: the others stay out.
      guard let provider = FirebaseImportRecord.importableProviderId(identity.provider) else { return nil }
      var info = JSONObject([("providerId", .string(provider))])
      if let id = identity.id { info["rawId"] = .string(id) }
      if let email = identity.email { info["email"] = .string(email) }
      return .object(info)
    }
    if !infos.isEmpty { object["providerUserInfo"] = .array(infos) }
    return .object(object)
  }

  /// The provider ids `firebase auth:import` takes (any other refuses the whole file).
  package static let importableProviders: Set<String> = [
    "google.com", "facebook.com", "twitter.com", "github.com", "apple.com", "microsoft.com", "gc.apple.com",
    "playgames.google.com", "linkedin.com", "yahoo.com",
  ]

  /// A provider as `firebase auth:import` takes it (`azure` is `microsoft.com`, `linkedin_oidc`
  /// `linkedin.com`); nil for the password and for what it does not take (SSO, phone, discord…).
  package static func importableProviderId(_ provider: String) -> String? {
    let mapped: String
    switch provider {
    case "azure": mapped = "microsoft.com"
    case "linkedin_oidc", "linkedin": mapped = "linkedin.com"
    default: mapped = providerId(provider)
    }
    return importableProviders.contains(mapped) ? mapped : nil
  }

  /// Supabase's provider names as Firebase's (`google` → `google.com`; `email` is the password).
  static func providerId(_ provider: String) -> String {
    switch provider {
    case "email", "password": return "password"
    case "google", "github", "apple", "facebook", "twitter": return provider + ".com"
    default: return provider
    }
  }
}

/// `$fbscrypt$v=1,n=…,r=…,p=…,ss=…,sk=…$SALT$HASH` taken apart.
package struct FbscryptParts: Sendable, Equatable {
  package var parameters: [String: String]
  package var salt: String
  package var hash: String

  package init?(_ text: String) {
    guard text.hasPrefix("$fbscrypt$") else { return nil }
    let parts = text.dropFirst("$fbscrypt$".count).split(separator: "$", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    var parameters: [String: String] = [:]
    for pair in parts[0].split(separator: ",") {
      let kv = pair.split(separator: "=", maxSplits: 1)
      guard kv.count == 2 else { return nil }
      parameters[String(kv[0])] = String(kv[1])
    }
    self.parameters = parameters
    salt = String(parts[1])
    hash = String(parts[2])
  }
}

/// RFC 3339 → milliseconds since 1970 as text (Firebase's `createdAt`): the seconds as
/// `UnixTime.parseISO` reads them, plus the fraction's first three digits.
enum UnixMillis {
  static func from(_ text: String) -> String? {
    guard let seconds = UnixTime.parseISO(text) else { return nil }
    var millis = 0
    let fraction = text.utf8.dropFirst(19)
    if fraction.first == UInt8(ascii: ".") {
      let digits = fraction.dropFirst().prefix { $0 >= 48 && $0 <= 57 }.prefix(3)
      for digit in digits { millis = millis * 10 + Int(digit - 48) }
      for _ in digits.count..<3 { millis *= 10 }
    }
    return String(seconds * 1000 + millis)
  }
}
