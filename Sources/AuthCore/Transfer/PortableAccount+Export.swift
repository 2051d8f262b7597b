import JSONKit

/// One way in of an exported account (`identities[]` of the portable record).
package struct PortableIdentity: Sendable, Equatable {
  /// As the source backend names it: `password`, `google.com` (Firebase); `email`, `google` (Supabase).
  package var provider: String
  /// The provider's subject (Google's account number; the user id for GoTrue's `email` identity).
  package var id: String?
  package var email: String?

  package init(provider: String, id: String? = nil, email: String? = nil) {
    self.provider = provider
    self.id = id
    self.email = email
  }

  package var json: JSON { ["provider": .string(provider), "id": .optional(id), "email": .optional(email)] }
}

/// A second factor of an exported account: what it is, never its secret.
package struct PortableFactor: Sendable, Equatable {
  package var id: String
  /// `totp`, `phone`, `webauthn`.
  package var type: String
  package var friendlyName: String?

  package init(id: String, type: String, friendlyName: String? = nil) {
    self.id = id
    self.type = type
    self.friendlyName = friendlyName
  }

  package var json: JSON { ["id": .string(id), "type": .string(type), "friendly_name": .optional(friendlyName)] }
}

/// What `user export` needs of the portable record (`PortableAccount`).
extension PortableAccount {
  package enum Source: String, Sendable { case firebase, supabase }

  /// A record as an export reads it from a backend.
  package init(
    id: String, email: String? = nil, emailVerified: Bool = false, phone: String? = nil, displayName: String? = nil,
    disabled: Bool = false, bannedUntil: String? = nil, createdAt: String? = nil, lastSignInAt: String? = nil,
    userMetadata: JSON? = nil, appMetadata: JSON? = nil, providers: [String] = [], identities: [PortableIdentity]? = [],
    factors: [PortableFactor]? = [], source: Source, passwordHash: String? = nil, passwordNote: String? = nil,
    phoneConfirmed: Bool? = nil, photoURL: String? = nil, invitedAt: String? = nil
  ) {
    self.init(id: id, email: email)
    self.emailVerified = emailVerified
    self.phone = phone
    self.displayName = displayName
    self.disabled = disabled
    self.bannedUntil = bannedUntil
    self.createdAt = createdAt
    self.lastSignInAt = lastSignInAt
    self.userMetadata = userMetadata?.object
    self.appMetadata = appMetadata?.object
    self.providers = providers
    self.identities = identities
    self.factors = factors
    self.source = source.rawValue
    self.passwordHash = passwordHash
    self.passwordNote = passwordNote
    self.phoneConfirmed = phoneConfirmed
    self.photoURL = photoURL
    self.invitedAt = invitedAt
  }

  /// The record's keys, in the order every format writes them (the CSV header).
  package static let keys = [
    "id", "email", "email_verified", "phone", "display_name", "disabled", "banned_until", "created_at",
    "last_sign_in_at", "user_metadata", "app_metadata", "providers", "identities", "factors", "source",
    "password_hash", "password_note", "phone_verified", "photo_url", "invited_at",
  ]

  /// One field as JSON (null when unknown).
  package func value(of key: String) -> JSON {
    switch key {
    case "id": return .optional(id)
    case "email": return .optional(email)
    case "email_verified": return emailVerified.map(JSON.bool) ?? .null
    case "phone": return .optional(phone)
    case "display_name": return .optional(displayName)
    case "disabled": return disabled.map(JSON.bool) ?? .null
    case "banned_until": return .optional(bannedUntil)
    case "created_at": return .optional(createdAt)
    case "last_sign_in_at": return .optional(lastSignInAt)
    case "user_metadata": return userMetadata.map(JSON.object) ?? .null
    case "app_metadata": return appMetadata.map(JSON.object) ?? .null
    case "providers": return .array(providers.map(JSON.string))
    case "identities": return identities.map { .array($0.map(\.json)) } ?? .null
    case "factors": return factors.map { .array($0.map(\.json)) } ?? .null
    case "source": return .optional(source)
    case "password_hash": return .optional(passwordHash)
    case "password_note": return .optional(passwordNote)
    case "phone_verified": return phoneConfirmed.map(JSON.bool) ?? .null
    case "photo_url": return .optional(photoURL)
    case "invited_at": return .optional(invitedAt)
    default: return .null
    }
  }

  /// Whether a filter text (lower-cased) matches: a part of the e-mail address or the name, or the whole id.
  package func matches(_ filter: String) -> Bool {
    (email?.lowercased().contains(filter) ?? false) || (displayName?.lowercased().contains(filter) ?? false)
      || id?.lowercased() == filter
  }
}
