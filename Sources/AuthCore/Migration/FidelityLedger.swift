import Essentials
import JSONKit

/// Every field of a portable account, as the fidelity ledger lists it. Adding one fails to compile
/// until `FidelityLedger.rules` and `FidelityLedger.fate` say what each target makes of it.
package enum PortableField: String, CaseIterable, Sendable {
  case id
  case email
  case emailConfirmation = "email_verified"
  case phone
  case phoneConfirmation = "phone_verified"
  case password = "password_hash"
  case secondFactors = "factors"
  case identities
  case ban = "banned_until"
  case disabled
  case displayName = "display_name"
  case photo = "photo_url"
  case userMetadata = "user_metadata"
  case appMetadata = "app_metadata"
  case invitation = "invited_at"
  case createdAt = "created_at"
  case lastSignInAt = "last_sign_in_at"

  /// The field as the direction table names it.
  package var title: String {
    switch self {
    case .id: return "id"
    case .email: return "e-mail address"
    case .emailConfirmation: return "e-mail confirmation"
    case .phone: return "phone number"
    case .phoneConfirmation: return "phone confirmation"
    case .password: return "password hash"
    case .secondFactors: return "second factors"
    case .identities: return "Google, GitHub, SSO identities"
    case .ban: return "ban and its end"
    case .disabled: return "disabled"
    case .displayName: return "display name"
    case .photo: return "photo"
    case .userMetadata: return "user_metadata"
    case .appMetadata: return "app_metadata / custom claims"
    case .invitation: return "invitation not yet accepted"
    case .createdAt: return "created"
    case .lastSignInAt: return "last sign-in"
    }
  }
}

/// What a target makes of one field of an account.
package enum FieldFate: Sendable, Equatable {
  /// It arrives as it was.
  case carried
  /// It arrives in another form (how).
  case converted(String)
  /// The account would arrive weaker: held back unless the loss's flag accepts it.
  case held(ImportLoss)
  /// Not carried; counted under the loss's key (`import.losses`, each report line's `lost`).
  case counted(ImportLoss)
}

/// One line of the ledger's documentation: when a field's value is like this, this is its fate.
package struct LedgerRule: Sendable, Equatable {
  package var when: String?
  package var fate: FieldFate
  package init(_ when: String, _ fate: FieldFate) {
    self.when = when
    self.fate = fate
  }

  /// A fate whatever the value.
  package init(_ fate: FieldFate) {
    self.when = nil
    self.fate = fate
  }
}

/// What an account is known to have, worked out once for the ledger's questions.
package struct LedgerFacts: Sendable {
  package var now: Int
  /// The record says it signed in with a password.
  package var hadPassword: Bool
  /// Why it would arrive without its password (nil: it carries one).
  package var withoutPassword: String?

  package init(now: Int, hadPassword: Bool, withoutPassword: String?) {
    self.now = now
    self.hadPassword = hadPassword
    self.withoutPassword = withoutPassword
  }
}

/// The fidelity ledger: for every field and target, what an import does with it. The documentation
/// (`rules`, the direction table of docs/moving-accounts.md, `help user import`) and the check of each account (`fate`)
/// are two exhaustive switches over the same fields, side by side.
package enum FidelityLedger {
  /// Firebase's cap on `customAttributes`, in characters of its JSON text.
  package static let claimsLimit = 1000

  /// The documentation of one field going into `target`.
  package static func rules(_ field: PortableField, into target: ProviderKind) -> [LedgerRule] {
    let firebase = target == .firebase
    switch field {
    case .id:
      return firebase
        ? [LedgerRule(.carried), LedgerRule("none in the record", .converted("an id made from its address"))]
        : [LedgerRule("a UUID", .carried), LedgerRule("another id", .converted("a new UUID, listed as `new_id`"))]
    case .email:
      return [LedgerRule(.carried)]
    case .emailConfirmation:
      return firebase
        ? [LedgerRule(.carried)]
        : [
          LedgerRule("confirmed", .carried),
          LedgerRule("unconfirmed, from Firebase, with a password", .held(.verified)),
        ]
    case .phone:
      return [
        LedgerRule("a number", .converted(firebase ? "E.164 (`+` and digits)" : "digits without `+`")),
        LedgerRule("text that is no number", .counted(.phone)),
      ]
    case .phoneConfirmation:
      return firebase
        ? [
          LedgerRule("confirmed", .converted("a sign-in number")),
          LedgerRule("unconfirmed or not in the file", .counted(.phoneUnconfirmed)),
        ]
        : [
          LedgerRule("confirmed (a Firebase number always is)", .carried),
          LedgerRule("unconfirmed", .carried),
          LedgerRule("not in the file: imported unconfirmed", .counted(.phoneUnconfirmed)),
        ]
    case .password:
      return firebase
        ? [
          LedgerRule("bcrypt", .converted("`BCRYPT`")),
          LedgerRule("Firebase scrypt", .converted("`SCRYPT` with its parameters")),
          LedgerRule("HMAC_*, MD5, SHA*, PBKDF*, STANDARD_SCRYPT", .converted("that kind with its parameters")),
          LedgerRule("argon2, or a kind authsh cannot identify", .held(.password)),
          LedgerRule("none in the file, though it had one", .held(.password)),
        ]
        : [
          LedgerRule("bcrypt or argon2", .carried),
          LedgerRule("Firebase scrypt", .converted("`$fbscrypt$` with its parameters")),
          LedgerRule("HMAC_*, MD5, SHA*, PBKDF*, STANDARD_SCRYPT", .held(.password)),
          LedgerRule("none in the file, though it had one", .held(.password)),
        ]
    case .secondFactors:
      return [
        LedgerRule("listed", .held(.secondFactors)),
        LedgerRule(
          "not in the file (a `\\copy`, firebase-tools' CSV, Supabase's admin list)", .counted(.factorsUnknown)),
      ]
    case .identities:
      return [LedgerRule(.counted(.identities))]
    case .ban:
      return firebase
        ? [
          LedgerRule("without end (`infinity`)", .converted("disabled")),
          LedgerRule("with an end: disabled without it", .counted(.banEnd)),
          LedgerRule("ended", .converted("no ban")),
        ]
        : [
          LedgerRule("without end (`infinity`)", .converted("a ban of 100 years")),
          LedgerRule("with an end", .converted("a ban ending to the second")),
          LedgerRule("ended", .converted("no ban")),
        ]
    case .disabled:
      return firebase ? [LedgerRule(.carried)] : [LedgerRule(.converted("a ban of 100 years"))]
    case .displayName:
      return firebase ? [LedgerRule(.carried)] : [LedgerRule(.converted("`user_metadata.full_name`"))]
    case .photo:
      return firebase ? [LedgerRule(.converted("`photoUrl`"))] : [LedgerRule(.converted("`user_metadata.avatar_url`"))]
    case .userMetadata:
      return firebase
        ? [LedgerRule("keys of its own", .counted(.metadata))] : [LedgerRule(.carried)]
    case .appMetadata:
      return firebase
        ? [
          LedgerRule("up to 1,000 characters", .converted("custom claims")),
          LedgerRule("longer", .counted(.claims)),
        ]
        : [LedgerRule(.converted("`app_metadata` (Firebase's claims as `app_metadata.claims`)"))]
    case .invitation:
      return [LedgerRule(.converted("an account without a password: a reset link sets one"))]
    case .createdAt, .lastSignInAt:
      return firebase ? [LedgerRule(.carried)] : [LedgerRule(.counted(.timestamps))]
    }
  }

  /// What `target` makes of `field` of this account; nil when the account has nothing there to
  /// carry or lose.
  package static func fate(
    _ field: PortableField, of account: PortableAccount, into target: ProviderKind, facts: LedgerFacts
  ) -> FieldFate? {
    let firebase = target == .firebase
    switch field {
    case .id:
      guard let id = account.id, !id.isEmpty else { return firebase ? .converted("made from its address") : nil }
      return firebase || AccountImportPlan.isUUID(id) ? .carried : .converted("a new UUID")
    case .email:
      return account.email == nil ? nil : .carried
    case .emailConfirmation:
      guard account.email != nil else { return nil }
      if !firebase, account.emailVerified != true, account.source == "firebase", facts.hadPassword {
        return .held(.verified)
      }
      return .carried
    case .phone:
      guard let phone = account.phone, !phone.isEmpty else { return nil }
      return PortableAccount.e164(phone) == nil ? .counted(.phone) : .converted("E.164")
    case .phoneConfirmation:
      guard account.phone.flatMap(PortableAccount.e164) != nil else { return nil }
      switch account.phoneConfirmed {
      case true?: return firebase ? .converted("a sign-in number") : .carried
      case false?: return firebase ? .counted(.phoneUnconfirmed) : .carried
      case nil: return .counted(.phoneUnconfirmed)
      }
    case .password:
      guard facts.hadPassword else { return nil }
      return facts.withoutPassword == nil ? .carried : .held(.password)
    case .secondFactors:
      // Not in the source is not none: the account may have had factors.
      guard let factors = account.factors else { return .counted(.factorsUnknown) }
      return factors.isEmpty ? nil : .held(.secondFactors)
    case .identities:
      let otherWays = Set(account.providers).subtracting(["email", "password", "phone", "anonymous"])
      return otherWays.isEmpty ? nil : .counted(.identities)
    case .ban:
      switch account.ban(at: facts.now) {
      case .until?: return firebase ? .counted(.banEnd) : .converted("a ban ending to the second")
      case .forever?: return .converted(firebase ? "disabled" : "a ban of 100 years")
      case nil: return nil
      }
    case .disabled:
      return account.disabled == true ? .carried : nil
    case .displayName:
      return account.displayName.map { $0.isEmpty } == false ? .carried : nil
    case .photo:
      return account.photoURL.map { $0.isEmpty } == false ? .carried : nil
    case .userMetadata:
      guard firebase else { return account.userMetadata == nil ? nil : .carried }
      let own = (account.userMetadata ?? JSONObject()).pairs.map(\.0).filter {
        !["full_name", "name", "avatar_url", "email_verified", "email", "sub", "phone_verified"].contains($0)
      }
      return own.isEmpty ? nil : .counted(.metadata)
    case .appMetadata:
      guard firebase else { return account.appMetadata == nil ? nil : .carried }
      guard let claims = AccountImportPlan.customClaims(account) else { return nil }
      return AccountImportPlan.claimsText(claims) == nil ? .counted(.claims) : .converted("custom claims")
    case .invitation:
      return account.invitedAt == nil ? nil : .converted("no password")
    case .createdAt:
      guard account.createdAt != nil else { return nil }
      return firebase ? .carried : .counted(.timestamps)
    case .lastSignInAt:
      guard account.lastSignInAt != nil else { return nil }
      return firebase ? .carried : .counted(.timestamps)
    }
  }
}
