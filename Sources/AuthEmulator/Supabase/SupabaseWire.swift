import JSONKit

/// How users look on the wire: Go struct order of `models.User`, optional times omitted when unset.
extension SBUser {
  enum IdentitiesField { case loaded, empty, null }

  func wireObject(identities: IdentitiesField = .loaded) -> JSONObject {
    var object = JSONObject()
    object["id"] = .string(id)
    object["aud"] = .string(aud)
    object["role"] = .string(role)
    object["email"] = .string(email)
    if let emailConfirmedAt { object["email_confirmed_at"] = .string(GoTime.format(emailConfirmedAt)) }
    if let invitedAt { object["invited_at"] = .string(GoTime.format(invitedAt)) }
    object["phone"] = .string(phone)
    if let phoneConfirmedAt { object["phone_confirmed_at"] = .string(GoTime.format(phoneConfirmedAt)) }
    if !phoneChange.isEmpty { object["new_phone"] = .string(phoneChange) }
    if let phoneChangeSentAt { object["phone_change_sent_at"] = .string(GoTime.format(phoneChangeSentAt)) }
    if let confirmationSentAt { object["confirmation_sent_at"] = .string(GoTime.format(confirmationSentAt)) }
    // `confirmed_at`: LEAST(email_confirmed_at, phone_confirmed_at), a generated column.
    if let confirmedAt = [emailConfirmedAt, phoneConfirmedAt].compactMap({ $0 }).min() {
      object["confirmed_at"] = .string(GoTime.format(confirmedAt))
    }
    if let recoverySentAt { object["recovery_sent_at"] = .string(GoTime.format(recoverySentAt)) }
    if !newEmail.isEmpty { object["new_email"] = .string(newEmail) }
    if let emailChangeSentAt { object["email_change_sent_at"] = .string(GoTime.format(emailChangeSentAt)) }
    if let lastSignInAt { object["last_sign_in_at"] = .string(GoTime.format(lastSignInAt)) }
    object["app_metadata"] = .object(appMetadata)
    object["user_metadata"] = .object(userMetadata)
    // `factors,omitempty`; the admin listing loads neither factors nor identities.
    if identities != .null, !factors.isEmpty { object["factors"] = .array(factors.map(\.wire)) }
    switch identities {
    case .loaded: object["identities"] = .array(allIdentities.map { $0.wire(user: self) })
    case .empty: object["identities"] = []
    case .null: object["identities"] = .null
    }
    object["created_at"] = .string(GoTime.format(createdAt))
    object["updated_at"] = .string(GoTime.format(updatedAt))
    if let bannedUntil { object["banned_until"] = .string(GoTime.format(bannedUntil)) }
    if let deletedAt { object["deleted_at"] = .string(GoTime.format(deletedAt)) }
    object["is_anonymous"] = .bool(isAnonymous)
    return object
  }

  /// `sanitizeUser` (signup.go): what a sign-up for an already confirmed address answers while
  /// confirmations are on, so that the answer does not reveal the account.
  func obfuscated(data: JSONObject, now: Micros) -> SBUser {
    var fake = self
    fake.id = EmulatorRandom.uuid()
    fake.role = ""
    fake.newEmail = ""
    fake.createdAt = now
    fake.updatedAt = now
    fake.confirmationSentAt = now
    fake.lastSignInAt = nil
    fake.emailConfirmedAt = nil
    fake.emailChangeSentAt = nil
    fake.userMetadata = data
    fake.appMetadata = SBUser.emailAppMetadata
    fake.phone = ""
    fake.phoneChange = ""
    fake.phoneChangeSentAt = nil
    fake.factors = []
    fake.otherIdentities = []
    return fake
  }

  static let emailAppMetadata = JSONObject([("provider", "email"), ("providers", ["email"])])

  /// The e-mail identity first, then the others.
  var allIdentities: [SBIdentity] { (identity.map { [$0] } ?? []) + otherIdentities }

  /// Every identity's provider, in order, without repeats (`UpdateAppMetaDataProviders`).
  var identityProviders: [String] {
    var seen = Set<String>()
    return allIdentities.map(\.provider).filter { seen.insert($0).inserted }
  }
}

extension SBIdentity {
  func wire(user: SBUser) -> JSON {
    var object = JSONObject()
    object["identity_id"] = .string(identityID)
    object["id"] = .string(providerID ?? user.id)
    object["user_id"] = .string(user.id)
    object["identity_data"] = .object(data)
    object["provider"] = .string(provider)
    if let lastSignInAt { object["last_sign_in_at"] = .string(GoTime.format(lastSignInAt)) }
    object["created_at"] = .string(GoTime.format(createdAt))
    object["updated_at"] = .string(GoTime.format(updatedAt))
    object["email"] = .string(data["email"]?.string ?? (provider == "email" ? user.email : ""))
    return .object(object)
  }

  /// The identity a new e-mail user gets: `sub`, `email`, `email_verified`, `phone_verified`,
  /// plus the sign-up `data` keys that do not clash (keys sorted, like Go's map encoding).
  static func email(userID: String, email: String, data: JSONObject, now: Micros) -> SBIdentity {
    var identityData = JSONObject([
      ("email", .string(email)), ("email_verified", false), ("phone_verified", false), ("sub", .string(userID)),
    ])
    for (key, value) in data.pairs where identityData[key] == nil { identityData[key] = value }
    return SBIdentity(
      identityID: EmulatorRandom.uuid(), data: identityData.sortedByKey, lastSignInAt: nil, createdAt: now,
      updatedAt: now)
  }
}
