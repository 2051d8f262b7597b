import Essentials
import JSONKit

/// `accounts:batchCreate` (`operations.ts` `batchCreate`; the Admin SDK's `importUsers`): up to
/// 1000 accounts per call, each written whole (an existing localId only with `allowOverwrite`).
/// A bad entry is reported in `error` by index and the others are created. `rawPassword` is
/// hashed like any password; a `passwordHash` (base64) is kept as given for `hashAlgorithm`
/// `SCRYPT` (Firebase's modified scrypt with the call's `signerKey`, `saltSeparator`, `rounds`,
/// `memoryCost`, and each entry's `salt`) or `BCRYPT` (the bcrypt string), checked at sign-in and
/// replaced there by the project's own scrypt (`FirebaseImportHash.swift`); the other kinds
/// production takes (HMAC_*, MD5, SHA*, PBKDF*, STANDARD_SCRYPT) are kept with their parameters
/// and checked the same way (`ImportedPasswordHash`). Federated `providerUserInfo` entries are kept
/// (providerId and rawId required, a pair another account holds refused); second factors are refused.
struct FirebaseBatchCreateRoutes: Sendable {
  let context: FirebaseContext

  func batchCreate(_ call: FirebaseCall) throws -> JSON {
    let entries = call.body["users"]?.array ?? []
    try require(!entries.isEmpty, "MISSING_USER_ACCOUNT")
    try require(entries.count <= 1000, "Maximum number of users per request is 1000.")
    let sanityCheck = call.body.bool("sanityCheck") == true
    let allowOverwrite = call.body.bool("allowOverwrite") == true
    let importer = try FirebaseImportHash(call.body, entries: entries)
    // Hashing happens before the state lock is taken.
    let hashConfig =
      entries.contains { $0["rawPassword"]?.string != nil } ? context.state.hashConfig(call.projectId) : nil
    let hashes: [Result<String?, FirebaseError>] = entries.map { entry in
      if let raw = entry["rawPassword"]?.string, let hashConfig {
        return .success(FirebaseContext.nativeHash(raw, config: hashConfig))
      }
      return importer.storedHash(entry)
    }
    let uploadTime = context.now
    // Each entry is read and checked on its own before the lock is taken, so that two calls build
    // their accounts at once; under the lock only what depends on the other accounts is checked.
    let prepared: [Result<FirebaseUser, FirebaseError>] = entries.indices.map { index in
      Result { try Self.importedUser(entries[index], hash: hashes[index].get(), uploadTime: uploadTime) }
        .mapError { $0 as? FirebaseError ?? .bad("\($0)") }
    }
    return try context.state.with(call.projectId) { project in
      try Self.checkBatch(entries, project: project, sanityCheck: sanityCheck, allowOverwrite: allowOverwrite)
      var errors: [JSON] = []
      for (index, entry) in prepared.enumerated() {
        do {
          let user = try entry.get()
          try Self.checkConflicts(
            user, email: entries[index]["email"]?.string ?? "", project: project, sanityCheck: sanityCheck,
            allowOverwrite: allowOverwrite)
          try project.save(user)
        } catch let error as FirebaseError {
          errors.append(["index": .int(index), "message": .string(error.message)])
        }
      }
      return ["kind": "identitytoolkit#UploadAccountResponse", "error": .array(errors)]
    }
  }

  /// The whole call is refused for a duplicate inside it (`sanityCheck`: e-mail, provider; always: localId).
  private static func checkBatch(
    _ entries: [JSON], project: FirebaseProject, sanityCheck: Bool, allowOverwrite: Bool
  ) throws {
    if sanityCheck && !project.allowDuplicateEmails {
      var seen = Set<String>()
      for email in entries.compactMap({ $0["email"]?.string }) {
        try require(seen.insert(email).inserted, "DUPLICATE_EMAIL : \(email)")
      }
    }
    if sanityCheck {
      var seen = Set<String>()
      for provider in entries.flatMap({ $0["providerUserInfo"]?.array ?? [] }) {
        let id = provider["providerId"]?.string ?? ""
        let rawId = provider["rawId"]?.string ?? ""
        try require(seen.insert(id + ":" + rawId).inserted, "DUPLICATE_RAW_ID : Provider id(\(id)), Raw id(\(rawId))")
      }
    }
    if !allowOverwrite {
      var seen = Set<String>()
      for entry in entries {
        let localId = entry["localId"]?.string ?? ""
        try require(seen.insert(localId).inserted, "DUPLICATE_LOCAL_ID : \(localId)")
      }
    }
  }

  /// What an entry cannot be because of the accounts already there: a provider pair or an e-mail
  /// another account holds, or an existing localId without `allowOverwrite`.
  private static func checkConflicts(
    _ user: FirebaseUser, email: String, project: FirebaseProject, sanityCheck: Bool, allowOverwrite: Bool
  ) throws {
    for info in user.federated {
      if let other = project.user(providerId: info.providerId, rawId: info.rawId), other.localId != user.localId {
        throw FirebaseError.bad("DUPLICATE_RAW_ID : Provider id(\(info.providerId)), Raw id(\(info.rawId))")
      }
    }
    if let canonical = user.email, let other = project.user(email: canonical), other.localId != user.localId {
      throw FirebaseError.bad(
        sanityCheck && !project.allowDuplicateEmails
          ? "email exists in other account in database"
          : "((Auth Emulator does not support importing duplicate email: \(email)))")
    }
    if project.user(localId: user.localId) != nil {
      try require(allowOverwrite, "localId belongs to an existing account - can not overwrite.")
    }
  }

  /// One entry as an account, checked on its own.
  private static func importedUser(_ entry: JSON, hash: String?, uploadTime: Date) throws -> FirebaseUser {
    guard let localId = entry["localId"]?.string, !localId.isEmpty else {
      throw FirebaseError.bad("localId is missing")
    }
    let createdAt = entry["createdAt"].flatMap(Self.integer) ?? FirebaseTime.milliseconds(uploadTime)
    var user = FirebaseUser(localId: localId, createdAt: createdAt)
    user.displayName = entry["displayName"]?.string
    user.photoUrl = entry["photoUrl"]?.string
    user.lastLoginAt = entry["lastLoginAt"].flatMap(Self.integer)
    if let hash {
      user.passwordHash = hash
      user.passwordUpdatedAt = FirebaseTime.milliseconds(uploadTime)
    }
    if let claims = entry["customAttributes"]?.string {
      guard case .object? = try? JSON.parse(claims) else { throw FirebaseError.bad("Invalid custom claims provided.") }
      user.customAttributes = claims
    }
    for provider in entry["providerUserInfo"]?.array ?? [] {
      let id = provider["providerId"]?.string ?? ""
      if id == FirebaseTokens.passwordProvider || id == "phone" { continue }
      guard !id.isEmpty, provider["rawId"]?.string?.isEmpty == false, let info = FirebaseProviderInfo(json: provider)
      else { throw FirebaseError.bad("federatedId or (providerId & rawId) is required") }
      user.federated.removeAll { $0.providerId == info.providerId }
      user.federated.append(info)
    }
    if let phone = entry["phoneNumber"]?.string, !phone.isEmpty {
      try require(FirebaseRules.isValidPhoneNumber(phone), "phone number format is invalid")
      user.phoneNumber = phone
    }
    user.validSince = FirebaseTime.seconds(uploadTime)
    if let email = entry["email"]?.string, !email.isEmpty {
      try require(FirebaseRules.isValidEmail(email) && Self.isImportableEmail(email), "email is invalid")
      user.email = FirebaseRules.canonicalEmail(email)
    }
    user.emailVerified = entry["emailVerified"]?.bool ?? false
    user.disabled = entry["disabled"]?.bool ?? false
    if entry["mfaInfo"]?.array?.isEmpty == false {
      throw FirebaseError.bad("((second factors are not supported by the authsh emulator))")
    }
    return user
  }

  /// What production refuses on top of the emulator's `x@y` check: an address longer than
  /// RFC 5321's 254 characters, control characters (NUL included) and U+FFFD (the mark of bytes
  /// that were not UTF-8).
  static func isImportableEmail(_ email: String) -> Bool {
    email.utf8.count <= 254
      && !email.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0xFFFD }
  }

  /// A millisecond count sent as a number or a numeric string.
  static func integer(_ value: JSON) -> Int? {
    if let number = value.int { return number }
    return value.string.flatMap { Int($0) }
  }
}
