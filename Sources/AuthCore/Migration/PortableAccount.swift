import Essentials
import JSONKit

/// One account of `user export --format jsonl` / `user import`: the portable record both backends
/// are read into and written from. Keys are snake_case; a field is nil when unknown.
public struct PortableAccount: Sendable, Equatable {
  public var id: String?
  public var email: String?
  public var emailVerified: Bool?
  public var phone: String?
  public var displayName: String?
  public var disabled: Bool?
  /// RFC 3339.
  public var bannedUntil: String?
  public var createdAt: String?
  public var lastSignInAt: String?
  public var userMetadata: JSONObject?
  public var appMetadata: JSONObject?
  public var providers: [String] = []
  /// The ways in, as the source backend lists them (`user export`); nil when it did not say
  /// (Supabase's admin list).
  public var identities: [PortableIdentity]?
  /// Second factors, never their secrets (`user export`); nil when unknown.
  public var factors: [PortableFactor]?
  /// `firebase` or `supabase`.
  public var source: String?
  /// The string GoTrue's `password_hash` takes: bcrypt, argon2 or `$fbscrypt$…` (`PasswordHashString`).
  public var passwordHash: String?
  /// Why there is no hash though there is a password.
  public var passwordNote: String?
  /// Whether the phone number was confirmed by a code; nil when the file does not say.
  public var phoneConfirmed: Bool?
  public var photoURL: String?
  /// RFC 3339: when an invitation not yet accepted was sent (the account has no password yet).
  public var invitedAt: String?

  public init(id: String? = nil, email: String? = nil) {
    self.id = id
    self.email = email
  }

  /// The record as a JSON line's object (the export's shape), keys in `keys` order.
  public var json: JSON {
    .object(JSONObject(Self.keys.map { ($0, value(of: $0)) }))
  }

  /// Reads a record object; unknown keys are ignored, wrong types are an error naming the key.
  public init(json: JSON) throws {
    guard let object = json.object else { throw PortableAccountError("is not a JSON object") }
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
  public static func e164(_ phone: String) -> String? {
    let digits = phone.hasPrefix("+") ? phone.dropFirst() : phone[...]
    guard (7...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return "+" + digits
  }
}

/// Why a record could not be read (the reader adds the line number).
public struct PortableAccountError: Error, Equatable, Sendable {
  public var message: String
  public init(_ message: String) { self.message = message }
}
