import Essentials
import JSONKit

/// One account of `user export --format jsonl` / `user import`: the portable record both backends
/// are read into and written from. Keys are snake_case; a field is nil when unknown.
package struct PortableAccount: Sendable, Equatable {
  /// The fields, held once and shared by copies until one changes (copy on write): an import hands
  /// each account through checks, outcomes and batches, and a copy is one reference, not twenty.
  struct Fields: Sendable, Equatable {
    var id: String?
    var email: String?
    var emailVerified: Bool?
    var phone: String?
    var displayName: String?
    var disabled: Bool?
    var bannedUntil: String?
    var createdAt: String?
    var lastSignInAt: String?
    var userMetadata: JSONObject?
    var appMetadata: JSONObject?
    var providers: [String] = []
    var identities: [PortableIdentity]?
    var factors: [PortableFactor]?
    var source: String?
    var passwordHash: String?
    var passwordNote: String?
    var phoneConfirmed: Bool?
    var photoURL: String?
    var invitedAt: String?
  }

  private var storage: Shared<Fields>

  package static func == (lhs: Self, rhs: Self) -> Bool { lhs.storage == rhs.storage }

  package var id: String? {
    get { storage.value.id }
    set { storage.value.id = newValue }
  }
  package var email: String? {
    get { storage.value.email }
    set { storage.value.email = newValue }
  }
  package var emailVerified: Bool? {
    get { storage.value.emailVerified }
    set { storage.value.emailVerified = newValue }
  }
  package var phone: String? {
    get { storage.value.phone }
    set { storage.value.phone = newValue }
  }
  package var displayName: String? {
    get { storage.value.displayName }
    set { storage.value.displayName = newValue }
  }
  package var disabled: Bool? {
    get { storage.value.disabled }
    set { storage.value.disabled = newValue }
  }
  /// RFC 3339.
  package var bannedUntil: String? {
    get { storage.value.bannedUntil }
    set { storage.value.bannedUntil = newValue }
  }
  package var createdAt: String? {
    get { storage.value.createdAt }
    set { storage.value.createdAt = newValue }
  }
  package var lastSignInAt: String? {
    get { storage.value.lastSignInAt }
    set { storage.value.lastSignInAt = newValue }
  }
  package var userMetadata: JSONObject? {
    get { storage.value.userMetadata }
    set { storage.value.userMetadata = newValue }
  }
  package var appMetadata: JSONObject? {
    get { storage.value.appMetadata }
    set { storage.value.appMetadata = newValue }
  }
  package var providers: [String] {
    get { storage.value.providers }
    set { storage.value.providers = newValue }
  }
  /// The ways in, as the source backend lists them (`user export`); nil when it did not say
  /// (Supabase's admin list).
  package var identities: [PortableIdentity]? {
    get { storage.value.identities }
    set { storage.value.identities = newValue }
  }
  /// Second factors, never their secrets (`user export`); nil when unknown.
  package var factors: [PortableFactor]? {
    get { storage.value.factors }
    set { storage.value.factors = newValue }
  }
  /// `firebase` or `supabase`.
  package var source: String? {
    get { storage.value.source }
    set { storage.value.source = newValue }
  }
  /// The string GoTrue's `password_hash` takes: bcrypt, argon2 or `$fbscrypt$…` (`PasswordHashString`).
  package var passwordHash: String? {
    get { storage.value.passwordHash }
    set { storage.value.passwordHash = newValue }
  }
  /// Why there is no hash though there is a password.
  package var passwordNote: String? {
    get { storage.value.passwordNote }
    set { storage.value.passwordNote = newValue }
  }
  /// Whether the phone number was confirmed by a code; nil when the file does not say.
  package var phoneConfirmed: Bool? {
    get { storage.value.phoneConfirmed }
    set { storage.value.phoneConfirmed = newValue }
  }
  package var photoURL: String? {
    get { storage.value.photoURL }
    set { storage.value.photoURL = newValue }
  }
  /// RFC 3339: when an invitation not yet accepted was sent (the account has no password yet).
  package var invitedAt: String? {
    get { storage.value.invitedAt }
    set { storage.value.invitedAt = newValue }
  }

  package init(id: String? = nil, email: String? = nil) {
    storage = Shared(Fields(id: id, email: email))
  }

  /// The record as a JSON line's object (the export's shape), keys in `keys` order.
  package var json: JSON {
    .object(JSONObject(Self.keys.map { ($0, value(of: $0)) }))
  }

  /// Reads a record object; unknown keys are ignored, wrong types are an error naming the key.
  package init(json: JSON) throws {
    guard let object = json.object else { throw PortableAccountError("is not a JSON object") }
    self.init()
    func string(_ key: String) throws -> String? {
      switch object[key] {
      case nil, .null?: return nil
      case .string(let value)?: return value
      default: throw PortableAccountError("\(key) is not a string")
      }
    }
    func bool(_ key: String) throws -> Bool? {
      switch object[key] {
      case nil, .null?: return nil
      case .bool(let value)?: return value
      default: throw PortableAccountError("\(key) is not true or false")
      }
    }
    func dictionary(_ key: String) throws -> JSONObject? {
      switch object[key] {
      case nil, .null?: return nil
      case .object(let value)?: return value
      default: throw PortableAccountError("\(key) is not an object")
      }
    }
    id = try string("id")
    email = try string("email")
    emailVerified = try bool("email_verified")
    phone = try string("phone")
    displayName = try string("display_name")
    disabled = try bool("disabled")
    bannedUntil = try string("banned_until")
    createdAt = try string("created_at")
    lastSignInAt = try string("last_sign_in_at")
    userMetadata = try dictionary("user_metadata")
    appMetadata = try dictionary("app_metadata")
    providers = (object["providers"]?.array ?? []).compactMap(\.string)
    identities = object["identities"]?.array?.compactMap { item in
      item["provider"]?.string.map {
        PortableIdentity(provider: $0, id: item["id"]?.string, email: item["email"]?.string)
      }
    }
    factors = try Self.factors(object["factors"])
    source = try string("source")
    passwordHash = try string("password_hash").flatMap { $0.isEmpty ? nil : $0 }
    passwordNote = try string("password_note")
    phoneConfirmed = try bool("phone_verified")
    photoURL = try string("photo_url")
    invitedAt = try string("invited_at")
    // Firebase holds a number only once a code confirmed it (records written before the field).
    if phoneConfirmed == nil, source == "firebase", phone?.isEmpty == false { phoneConfirmed = true }
  }

  /// `factors`: a list (each with an id), or null/absent for unknown; anything else is an error,
  /// not "none".
  static func factors(_ value: JSON?) throws -> [PortableFactor]? {
    switch value {
    case nil, .null?: return nil
    case .array(let items)?:
      return try items.map { item in
        guard let id = item["id"]?.string else { throw PortableAccountError("factors has an entry without an id") }
        return PortableFactor(id: id, type: item["type"]?.string ?? "totp", friendlyName: item["friendly_name"]?.string)
      }
    default: throw PortableAccountError("factors is not a list")
    }
  }
}

extension PortableAccount {
  /// A phone number in E.164 (`+15551234567`): GoTrue keeps the digits without `+`; nil for text
  /// that is no number.
  package static func e164(_ phone: String) -> String? {
    let digits = phone.hasPrefix("+") ? phone.dropFirst() : phone[...]
    guard (7...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return "+" + digits
  }
}

/// Why a record could not be read (the reader adds the line number).
package struct PortableAccountError: Error, Equatable, Sendable {
  package var message: String
  package init(_ message: String) { self.message = message }
}
