import Crypto
import JSONKit

/// Seeded accounts on the GoTrue side, shaped as GoTrue itself leaves them (an invited user has
/// `invited_at` and no password, a Google-only user a `google` identity and no `email` one, an SSO
/// user an `sso:<id>` identity, …). Accounts whose e-mail or id is already there are kept as they are.
extension SupabaseAPI {
  /// Creates the accounts in one transaction; returns (created, already there).
  func seed(_ accounts: [EmulatorSeedAccount]) throws -> (created: [String], skipped: Int) {
    // bcrypt outside the lock.
    let hashes = accounts.map { account in account.password.map { PasswordHasher.hash($0, cost: config.bcryptCost) } }
    let now = self.now
    return try state.transaction { data in
      var created: [String] = []
      var skipped = 0
      for (account, hash) in zip(accounts, hashes) {
        if let email = account.email, data.user(email: email) != nil {
          skipped += 1
          continue
        }
        if let id = account.stableID, data.users[id] != nil {
          skipped += 1
          continue
        }
        let user = Self.seededUser(account, hash: hash, now: now)
        data.saveUser(user)
        if account.softDeleted { data.softDeleteUser(id: user.id, at: now) }
        created.append(user.id)
      }
      return (created, skipped)
    }
  }

  /// Undoes a seed whose other half could not be stored.
  func unseed(_ ids: [String]) {
    _ = try? state.transaction { data in for id in ids { data.deleteUser(id: id) } }
  }

  static func seededUser(_ account: EmulatorSeedAccount, hash: String?, now: Micros) -> SBUser {
    let id = account.stableID ?? EmulatorRandom.uuid()
    let email = account.email ?? ""
    var metadata = JSONObject()
    if let name = account.name { metadata["full_name"] = .string(name) }
    var user = SBUser(
      id: id, email: email, passwordHash: hash, appMetadata: JSONObject(), userMetadata: metadata,
      createdAt: now, updatedAt: now)
    if account.anonymous {
      user.isAnonymous = true
    } else if account.sso {
      let provider = "sso:" + EmulatorRandom.uuid()
      user.isSSOUser = true
      user.otherIdentities = [externalIdentity(provider: provider, subject: email, user: user, now: now)]
    } else {
      for provider in account.providers {
        if provider == "email" {
          var identity = SBIdentity.email(userID: id, email: email, data: JSONObject(), now: now)
          identity.data["email_verified"] = .bool(account.confirmed)
          user.identity = identity
        } else {
          let subject = fakeSubject(provider: provider, email: email)
          user.otherIdentities.append(externalIdentity(provider: provider, subject: subject, user: user, now: now))
        }
      }
    }
    if user.identity == nil, let first = user.otherIdentities.first {
      // As after an OAuth sign-up: the IdP's claims are the user metadata.
      user.userMetadata = first.data.merging(user.userMetadata)
    }
    if !account.anonymous {
      let providers = user.identityProviders
      user.appMetadata = JSONObject([
        ("provider", .string(providers.first ?? "email")),
        ("providers", .array(providers.map(JSON.string))),
      ])
    }
    if account.invited {
      // As `POST /invite` leaves it: a pending invite token, no confirmation, no password.
      user.invitedAt = now
      user.confirmationToken = EmulatorJWT.sha224Hex(email + EmulatorRandom.otp())
      user.confirmationSentAt = now
    } else if account.confirmed && !account.anonymous {
      user.emailConfirmedAt = now
      if user.identity != nil { user.userMetadata["email_verified"] = true }
    }
    if account.disabled { user.bannedUntil = now + 876_000 * 3600 * 1_000_000 }  // `ban_duration: 876000h`
    user.factors = account.factors.map { factor in
      SBFactor(
        id: factor.id ?? EmulatorRandom.uuid(), friendlyName: factor.name,
        status: factor.verified ? SBFactor.verified : SBFactor.unverified, secret: factor.secret, createdAt: now)
    }
    user.userMetadata = user.userMetadata.sortedByKey
    return user
  }

  /// An identity of another provider, with the claims GoTrue keeps from the IdP.
  static func externalIdentity(provider: String, subject: String, user: SBUser, now: Micros, name: String? = nil)
    -> SBIdentity
  {
    var data = JSONObject()
    if !user.email.isEmpty {
      data["email"] = .string(user.email)
      data["email_verified"] = true
    }
    if let name = name ?? user.userMetadata["full_name"]?.string {
      data["full_name"] = .string(name)
      data["name"] = .string(name)
    }
    data["phone_verified"] = false
    data["provider_id"] = .string(subject)
    data["sub"] = .string(subject)
    return SBIdentity(
      identityID: EmulatorRandom.uuid(), data: data.sortedByKey, lastSignInAt: nil, createdAt: now,
      updatedAt: now, provider: provider, providerID: subject)
  }

  /// A stable, provider-looking subject for a seeded social account (21 digits, like Google's).
  static func fakeSubject(provider: String, email: String) -> String {
    let digest = Array(SHA256.hash(data: Array((provider + ":" + email).utf8)))
    var digits = ""
    for byte in digest.prefix(21) { digits += String(byte % 10) }
    return "1" + digits.dropFirst()
  }
}
