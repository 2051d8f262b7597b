import Essentials
import JSONKit

/// Seeded accounts of the default project, shaped as the Identity Toolkit leaves them: no
/// `passwordHash` without a password, `emailLinkSignin` for link-only accounts, a federated
/// provider per IdP, `mfaInfo` with `totpInfo` (and TOTP switched on in the project's `mfa` config).
/// Accounts whose e-mail or id is already there are kept.
extension FirebaseAPI {
  func seed(_ accounts: [EmulatorSeedAccount]) throws -> (created: [String], skipped: Int) {
    let hashConfig = state.hashConfig(state.defaultProjectId)
    let hashes = accounts.map { account in
      account.password.flatMap { FirebaseContext.nativeHash($0, config: hashConfig) }
    }
    let timestamp = now
    return try state.with(state.defaultProjectId) { project in
      var users: [FirebaseUser] = []
      var skipped = 0
      for (account, hash) in zip(accounts, hashes) {
        let taken =
          account.email.map { email in project.user(email: email) != nil || users.contains { $0.email == email } }
          ?? false
        if taken || account.stableID.map({ project.user(localId: $0) != nil }) == true {
          skipped += 1
          continue
        }
        users.append(
          Self.seededUser(account, hash: hash, localId: account.stableID ?? project.newLocalId(), at: timestamp))
      }
      try project.saveAll(users)
      // A project holding TOTP factors has TOTP switched on (its `mfa` config).
      if users.contains(where: { !$0.mfaInfo.isEmpty }), !project.totpConfigured {
        try project.setTOTP(adjacentIntervals: FirebaseMfaRoutes.totpAdjacentIntervals)
      }
      return (users.map(\.localId), skipped)
    }
  }

  func unseed(_ localIds: [String]) {
    state.with(state.defaultProjectId) { project in for localId in localIds { try? project.delete(localId) } }
  }

  static func seededUser(_ account: EmulatorSeedAccount, hash: String?, localId: String, at timestamp: Date)
    -> FirebaseUser
  {
    var user = FirebaseUser(localId: localId, createdAt: FirebaseTime.milliseconds(timestamp))
    user.displayName = account.name
    if account.anonymous { return user }
    user.email = account.email
    user.emailVerified = account.confirmed
    if let hash {
      user.passwordHash = hash
      user.passwordUpdatedAt = FirebaseTime.milliseconds(timestamp)
      user.validSince = FirebaseTime.seconds(timestamp)
    }
    if account.emailLinkOnly { user.emailLinkSignin = true }
    if account.disabled { user.disabled = true }
    for provider in account.providers where provider != FirebaseTokens.passwordProvider {
      let rawId = SupabaseAPI.fakeSubject(provider: provider, email: account.email ?? localId)
      user.federated.append(
        FirebaseProviderInfo(
          providerId: provider, rawId: rawId, email: account.email,
          displayName: account.name))
    }
    user.mfaInfo = account.factors.map { factor in
      FirebaseMfaEnrollment(
        mfaEnrollmentId: factor.id ?? FirebaseRandom.alphanumeric(28),
        displayName: factor.name.isEmpty ? nil : factor.name,
        enrolledAt: FirebaseTime.iso8601(timestamp), secret: factor.secret)
    }
    return user
  }
}
