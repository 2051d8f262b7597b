import Essentials
import JSONKit

/// An account as the admin API sees it: what support asks first (result model `user.*` of the
/// `user …` commands and `diagnose`). Times are ISO 8601 (UTC), nil when the backend did not say.
package struct AdminUser: Sendable, Equatable {
  package var id: String
  package var email: String
  package var confirmed: Bool
  package var confirmedAt: String?
  package var createdAt: String?
  package var lastSignInAt: String?
  /// Cannot sign in: Firebase `disabled`, or a Supabase ban that has not ended.
  package var disabled: Bool
  /// When a Supabase ban ends (nil: not banned, or disabled with no end).
  package var disabledUntil: String?
  /// Sign-in methods with neutral names: `password`, `google`, `github`, `apple`, `phone`, …
  /// (`password` is e-mail + password on both backends).
  package var methods: [String]
  package var name: String?
  /// Supabase `user_metadata` (the person's own keys); Firebase has none.
  package var metadata: JSON?
  /// Custom claims, in one place on both backends: Firebase `customAttributes`, Supabase
  /// `app_metadata` without GoTrue's own `provider`/`providers` (what goes into every token).
  package var claims: JSON?
  /// The phone number in E.164 (`+` and digits): Firebase `phoneNumber`, Supabase `phone`
  /// (which GoTrue stores without the `+`).
  package var phone: String?
  /// When the last recovery / confirmation mail went out (Supabase says; Firebase does not).
  package var recoverySentAt: String?
  package var confirmationSentAt: String?
  /// The latest mail an emulator "sent" to the address (nil elsewhere or when none).
  package var pendingMail: InboxMessage?
  /// When a Supabase account was soft-deleted (its row stays, e-mail obfuscated; GoTrue's list
  /// still returns it). nil for a live account.
  package var deletedAt: String?
  /// The new address of an e-mail change the person asked for and has not confirmed yet
  /// (Supabase `new_email`; Firebase: a pending `VERIFY_AND_CHANGE_EMAIL` code, which only an
  /// emulator shows). nil when none is pending or the backend does not say.
  package var pendingEmail: String?
  /// When the change mail went out (Supabase `email_change_sent_at`).
  package var emailChangeSentAt: String?
  /// Supabase `app_metadata` without GoTrue's own `provider` / `providers` (roles and the like
  /// an admin set); nil when there is nothing else. Firebase keeps such claims in `metadata`.
  package var appMetadata: JSON?
  /// What the backend lists as the account's ways in (Supabase identities, Firebase
  /// `providerUserInfo`), as it says them; `methods` is what authsh makes of them.
  package var identities: [AdminIdentity] = []
  /// Second factors (Supabase `factors`, Firebase `mfaInfo`).
  package var factors: [AuthFactor] = []
  /// When a Supabase invitation was sent (`invited_at`).
  package var invitedAt: String?
  /// Signs in through an organisation's identity provider (Supabase `is_sso_user` or an `sso:`
  /// identity; Firebase `saml.` / `oidc.` providers).
  package var sso = false
  /// Supabase `is_anonymous`; a Firebase account with no e-mail, phone or provider.
  package var anonymous = false

  package init(
    id: String, email: String, confirmed: Bool, confirmedAt: String? = nil, createdAt: String? = nil,
    lastSignInAt: String? = nil, disabled: Bool = false, disabledUntil: String? = nil, methods: [String] = [],
    name: String? = nil, metadata: JSON? = nil, recoverySentAt: String? = nil, confirmationSentAt: String? = nil,
    pendingMail: InboxMessage? = nil, deletedAt: String? = nil, pendingEmail: String? = nil,
    emailChangeSentAt: String? = nil, appMetadata: JSON? = nil
  ) {
    self.id = id
    self.email = email
    self.confirmed = confirmed
    self.confirmedAt = confirmedAt
    self.createdAt = createdAt
    self.lastSignInAt = lastSignInAt
    self.disabled = disabled
    self.disabledUntil = disabledUntil
    self.methods = methods
    self.name = name
    self.metadata = metadata
    self.recoverySentAt = recoverySentAt
    self.confirmationSentAt = confirmationSentAt
    self.pendingMail = pendingMail
    self.deletedAt = deletedAt
    self.pendingEmail = pendingEmail
    self.emailChangeSentAt = emailChangeSentAt
    self.appMetadata = appMetadata
  }

  /// Soft-deleted: listed by the backend, but gone for sign-in and lookups.
  package var deleted: Bool { deletedAt != nil }

  /// Whether the account can sign in with e-mail and a password it really has (`methods`
  /// lists `password` only then).
  package var hasPassword: Bool { methods.contains("password") }

  /// Invited and never accepted: no password until the invite link is followed.
  package var invitePending: Bool { invitedAt != nil && !confirmed }

  /// Signs in with mailed links only (Firebase `emailLinkSignin` without a password).
  package var emailLinkOnly: Bool { methods.contains("email_link") && !hasPassword && !invitePending }

  /// The factors that a sign-in asks for (Supabase ignores unverified ones).
  package var verifiedFactors: [AuthFactor] { factors.filter { $0.status == .verified } }

  /// The account as JSON; a pending mail's code and link secrets as `***` (`--show-tokens` reveals them).
  package var json: JSON { json(revealTokens: false) }

  package func json(revealTokens: Bool) -> JSON {
    var object = JSONObject([
      ("id", .string(id)), ("email", .string(email)), ("confirmed", .bool(confirmed)),
      ("confirmed_at", .optional(confirmedAt)), ("created_at", .optional(createdAt)),
      ("last_sign_in_at", .optional(lastSignInAt)), ("disabled", .bool(disabled)),
      ("disabled_until", .optional(disabledUntil)), ("methods", .array(methods.map(JSON.string))),
      ("name", .optional(name)), ("metadata", metadata ?? .null), ("recovery_sent_at", .optional(recoverySentAt)),
      ("confirmation_sent_at", .optional(confirmationSentAt)), ("deleted_at", .optional(deletedAt)),
      ("new_email", .optional(pendingEmail)), ("email_change_sent_at", .optional(emailChangeSentAt)),
      ("app_metadata", appMetadata ?? .null), ("claims", claims ?? .null), ("phone", .optional(phone)),
      ("invited_at", .optional(invitedAt)), ("sso", .bool(sso)), ("anonymous", .bool(anonymous)),
      ("identities", .array(identities.map(\.json))), ("factors", .array(factors.map(\.json))),
    ])
    let mail: JSON? = pendingMail.map { pending in
      let mail = revealTokens ? pending : pending.redacted
      return [
        "kind": .string(mail.kind), "code": .string(mail.code), "link": .string(mail.link),
        "email": .string(mail.email),
      ]
    }
    object["pending_mail"] = mail ?? .null
    return .object(object)
  }
}

/// What `user show ADDRESS` found for one address or id of the list (missing accounts are reported,
/// not fatal).
package struct UserLookup: Sendable, Equatable {
  /// As typed: an e-mail address or a user id.
  package var query: String
  package var user: AdminUser?
  /// Why the lookup failed (`user_not_found` for a missing account).
  package var error: AuthError?

  package init(query: String, user: AdminUser? = nil, error: AuthError? = nil) {
    self.query = query
    self.user = user
    self.error = error
  }
}

/// How a command names an account: an e-mail address (contains `@`), an E.164 phone number (`+`
/// and 2–15 digits, the first not 0) or a user id.
package enum UserReference: Sendable, Equatable, CustomStringConvertible {
  case email(String)
  case id(String)
  /// E.164: `+` and digits (spaces, hyphens, dots and brackets typed between them are dropped).
  case phone(String)

  package init(_ text: String) {
    let trimmed = text.trimmingWhitespace
    if trimmed.contains("@") {
      self = .email(trimmed)
    } else if let number = Self.e164(trimmed) {
      self = .phone(number)
    } else {
      self = .id(trimmed)
    }
  }

  /// The reference `text` is on `provider`, or nil when it is no address, id or number there:
  /// text nothing can be looked up by (a name, a word), refused before anything is sent.
  /// Supabase ids are UUIDs (32 hex digits without hyphens too). Firebase ids are any token of
  /// letters, digits and `-_.:|` up to 128 characters, except a word of letters only shorter than
  /// 20 characters (a generated id has 28 characters; such a word is a name more often than an
  /// imported id: `user list --filter` finds both).
  package static func parse(_ text: String, for provider: ProviderKind) -> UserReference? {
    let reference = UserReference(text)
    switch reference {
    case .email, .phone: return reference
    case .id(let id): return isId(id, for: provider) ? reference : nil
    }
  }

  package static func isId(_ id: String, for provider: ProviderKind) -> Bool {
    switch provider {
    case .supabase:
      return UUID(uuidString: id) != nil || (id.utf8.count == 32 && id.allSatisfy(\.isHexDigit))
    case .firebase:
      let scalars = id.unicodeScalars
      let token =
        !id.isEmpty && id.utf8.count <= 128
        && scalars.allSatisfy {
          $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.:|".unicodeScalars.contains($0))
        }
      guard token else { return false }
      return id.utf8.count >= 20 || !scalars.allSatisfy(\.properties.isAlphabetic)
    }
  }

  /// `text` as an E.164 number (`+` and its digits), or nil. Spaces, hyphens, dots and brackets
  /// between the digits are dropped (`+1 (555) 123-4567`); without the `+` it is no number.
  package static func e164(_ text: String) -> String? {
    guard text.hasPrefix("+") else { return nil }
    var digits = ""
    for character in text.dropFirst() {
      if let ascii = character.asciiValue, (48...57).contains(ascii) {
        digits.append(character)
      } else if !" -.()".contains(character) {
        return nil
      }
    }
    guard (2...15).contains(digits.count), digits.first != "0" else { return nil }
    return "+" + digits
  }

  /// What the text was taken for, for messages.
  package var description: String {
    switch self {
    case .email(let email): return email
    case .id(let id): return id
    case .phone(let number): return number
    }
  }

  /// The usage error for text that is no address, id or number on `provider`: it names the
  /// search that finds names and addresses.
  package static func refusal(_ text: String, for provider: ProviderKind) -> AuthError {
    let shown = text.count > 60 ? String(text.prefix(59)) + "…" : text
    let ids = provider == .supabase ? "a user id (a UUID)" : "a user id"
    return AuthError(
      .usage,
      message:
        "'\(shown)' is not an e-mail address, \(ids) or an E.164 phone number (+15551234567); nothing was sent. "
        + "To search names and addresses: authsh user list --filter \(Diagnosis.quoted(shown))")
  }
}
