import JSONKit

/// A GoTrue user row (`internal/models/user.go`) plus its e-mail identity. Times in microseconds.
struct SBUser: Sendable {
  var id: String
  var aud = "authenticated"
  var role = "authenticated"
  var email: String
  /// Digits without `+`, as GoTrue stores them (`validatePhone`); "" when none.
  var phone = ""
  var phoneConfirmedAt: Micros?
  /// `PUT /user {phone}`: the new number (digits) until its code is verified (`phone_change`),
  /// the code's token_hash and when it was texted.
  var phoneChange = ""
  var phoneChangeToken = ""
  var phoneChangeSentAt: Micros?
  /// bcrypt; nil for users without a password.
  var passwordHash: String?
  var emailConfirmedAt: Micros?
  var invitedAt: Micros?
  /// Pending mail tokens, stored as their token_hash (SHA-224 hex); "" when none.
  var confirmationToken = ""
  var confirmationSentAt: Micros?
  var recoveryToken = ""
  var recoverySentAt: Micros?
  var emailChangeToken = ""
  /// Secure e-mail change: the token mailed to the current address, and how many of the two
  /// links were followed (0 or 1).
  var emailChangeTokenCurrent = ""
  var emailChangeConfirmStatus = 0
  var newEmail = ""
  var emailChangeSentAt: Micros?
  var lastSignInAt: Micros?
  var appMetadata: JSONObject
  var userMetadata: JSONObject
  /// The e-mail identity (nil for anonymous, social-only and SSO accounts).
  var identity: SBIdentity?
  /// Identities of other providers (google, github, `sso:<id>`, …), oldest first.
  var otherIdentities: [SBIdentity] = []
  /// Second factors (`mfa_factors`), oldest first.
  var factors: [SBFactor] = []
  /// `is_sso_user`: made by SAML SSO; password sign-in never finds it. Not on the wire.
  var isSSOUser = false
  var createdAt: Micros
  var updatedAt: Micros
  var bannedUntil: Micros?
  /// Set by an admin soft delete (`should_soft_delete`).
  var deletedAt: Micros?
  var isAnonymous = false

  var isConfirmed: Bool { emailConfirmedAt != nil }
  func isBanned(at now: Micros) -> Bool { bannedUntil.map { $0 > now } ?? false }

  /// `User.Confirm`: confirmed now, `user_metadata.email_verified = true`.
  mutating func confirm(at now: Micros) {
    emailConfirmedAt = now
    confirmationToken = ""
    userMetadata["email_verified"] = true
    userMetadata = userMetadata.sortedByKey
    updatedAt = now
  }

  /// `adminUserUpdate`/`adminUserCreate` with `phone`: the number, and the phone identity GoTrue
  /// creates or updates beside it (`phone_confirm` marks both confirmed).
  mutating func setPhone(_ number: String, confirmed: Bool, at now: Micros) {
    phone = number
    if confirmed { phoneConfirmedAt = now }
    let data = JSONObject([
      ("email_verified", false), ("phone", .string(number)), ("phone_verified", .bool(confirmed)), ("sub", .string(id)),
    ])
    if let index = otherIdentities.firstIndex(where: { $0.provider == "phone" }) {
      otherIdentities[index].data = data
      otherIdentities[index].updatedAt = now
    } else {
      otherIdentities.append(
        SBIdentity(
          identityID: EmulatorRandom.uuid(), data: data, createdAt: now, updatedAt: now, provider: "phone",
          providerID: id))
    }
    var providers = appMetadata["providers"]?.array ?? []
    if !providers.contains(.string("phone")) { providers.append("phone") }
    appMetadata["providers"] = .array(providers)
    if appMetadata["provider"] == nil { appMetadata["provider"] = "phone" }
    updatedAt = now
  }

  /// `signupVerify`: the e-mail identity is marked verified too.
  mutating func markIdentityVerified(at now: Micros) {
    identity?.data["email_verified"] = true
    identity?.updatedAt = now
  }

  /// `User.UpdatePassword`: a new password ends every outstanding mail token (and its timer).
  mutating func setPassword(hash: String, at now: Micros) {
    passwordHash = hash
    confirmationToken = ""
    confirmationSentAt = nil
    recoveryToken = ""
    recoverySentAt = nil
    emailChangeToken = ""
    emailChangeTokenCurrent = ""
    emailChangeConfirmStatus = 0
    emailChangeSentAt = nil
    updatedAt = now
  }
}

/// An identity (`internal/models/identity.go`): the e-mail one, whose provider id is the user id,
/// or one of another provider, whose provider id is that provider's subject.
struct SBIdentity: Sendable {
  var identityID: String
  var data: JSONObject
  var lastSignInAt: Micros?
  var createdAt: Micros
  var updatedAt: Micros
  var provider = "email"
  /// The provider's subject; nil for the e-mail identity (the user id).
  var providerID: String?
}

/// One authentication method of a session (`amr` claim).
struct SBAuthMethod: Sendable, Equatable {
  var method: String
  var timestamp: Int
}

struct SBSession: Sendable {
  var id: String
  var userID: String
  var createdAt: Micros
  var updatedAt: Micros
  var amr: [SBAuthMethod]
  /// Set when refresh-token reuse revoked the whole token family (GoTrue's reuse detection).
  var familyRevoked = false
  /// `sessions.aal`: `aal2` once a second factor was verified in this session.
  var aal = "aal1"
  /// The factor verified in this session (`sessions.factor_id`).
  var factorID: String?
  /// `sessions.refreshed_at`: the last refresh-token grant (nil until the first).
  var refreshedAt: Micros?
  /// `sessions.user_agent` and `sessions.ip`: the `User-Agent` header and the address of the
  /// request that started the session, then of its last refresh ("" when not known).
  var userAgent = ""
  var ip = ""
}

struct SBRefreshToken: Sendable {
  var token: String
  var sessionID: String
  var userID: String
  var parent: String?
  var revoked = false
  var createdAt: Micros
  /// Time of the last change (revocation).
  var updatedAt: Micros
  /// Creation order, for "the currently active token" (highest non-revoked).
  var sequence: Int64
}

extension JSONObject {
  /// Keys sorted, as Go serialises its map-typed columns (`app_metadata`, `user_metadata`, …).
  var sortedByKey: JSONObject { JSONObject(pairs.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }) }

  /// GoTrue's metadata update: keys merged in, a `null` value deletes the key.
  func merging(_ update: JSONObject) -> JSONObject {
    var result = self
    for (key, value) in update.pairs { result[key] = value.isNull ? JSON?.none : value }
    return result.sortedByKey
  }
}
