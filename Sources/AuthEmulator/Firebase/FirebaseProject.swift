import Essentials
import JSONKit

/// The state of one project id, or of one tenant of it (Identity Platform multi-tenancy: a
/// tenant's accounts are a separate user store): accounts, pending codes and emulator config. Only
/// touched while `FirebaseState`'s lock is held. Every change is written to the document store
/// first, then applied in memory, so nothing acknowledged is lost.
final class FirebaseProject {
  let projectId: String
  /// Set for a tenant's user store.
  let tenantId: String?
  /// A tenant's settings (nil for the project itself).
  private(set) var tenant: FirebaseTenant?
  let store: any DocumentStore
  /// False with no `--state` file: accounts are then not encoded for a store that drops them.
  private let persistent: Bool
  private(set) var users: [String: FirebaseUser] = [:]
  private var localIdForEmail: [String: String] = [:]
  private var localIdForInitialEmail: [String: String] = [:]
  private var localIdForPhone: [String: String] = [:]
  /// `providerId + "\u{0}" + rawId` of federated providers → localId.
  private var localIdForProvider: [String: String] = [:]
  /// Started TOTP enrolments by `sessionInfo` (`FirebaseMfaRoutes.swift`).
  var totpSessions: [String: FirebaseTotpSession] = [:]
  /// Codes of `sendVerificationCode` by `sessionInfo` (`FirebasePhoneRoutes.swift`).
  var phoneCodes: [String: FirebasePhoneCode] = [:]
  /// Every localId in order: `accounts:batchGet` pages read off it instead of sorting.
  private var localIdOrder = OrderedIndex<String>()
  private var oobs: [String: FirebaseOob] = [:]
  private var nextOobSequence = 0
  private(set) var allowDuplicateEmails = false
  private(set) var emailPrivacy = false
  /// The v2 config's `signIn.email`: e-mail/password sign-in on, and whether a password is required
  /// (false: e-mail links work too).
  private(set) var emailSignIn = FirebaseEmailSignIn()
  /// The v2 config's `mfa`: the TOTP provider's `adjacentIntervals` when it is switched on, else nil;
  /// only meaningful once `totpConfigured` (before that the mode decides, `totpIntervals`).
  private(set) var totpAdjacentIntervals: Int?
  private(set) var totpConfigured = false
  /// The project's password hash parameters (the v2 config's `signIn.hashConfig`): made at random
  /// when the project is first used, stored with the config from the first password on.
  private(set) var hashConfig = FirebaseScryptParameters.random()
  private var hashConfigStored = false

  static let usersTable = "firebase_users"
  static let oobTable = "firebase_oob_codes"
  static let configTable = "firebase_config"
  static let tenantsTable = "firebase_tenants"

  init(projectId: String, tenantId: String? = nil, store: any DocumentStore, emailPrivacy: Bool = false) {
    self.projectId = projectId
    self.tenantId = tenantId
    self.store = store
    self.persistent = store.isPersistent
    self.emailPrivacy = emailPrivacy
  }

  /// `PROJECT` or `PROJECT/tenants/TENANT`: the key of this store in `FirebaseState` and in the
  /// document store.
  var stateKey: String { Self.stateKey(projectId: projectId, tenantId: tenantId) }

  static func stateKey(projectId: String, tenantId: String?) -> String {
    tenantId.map { projectId + tenantInfix + $0 } ?? projectId
  }

  static let tenantInfix = "/tenants/"

  /// `PROJECT/tenants/TENANT` → (PROJECT, TENANT).
  static func parse(stateKey: String) -> (projectId: String, tenantId: String?) {
    guard let range = stateKey.firstRange(of: tenantInfix) else { return (stateKey, nil) }
    return (String(stateKey[..<range.lowerBound]), String(stateKey[range.upperBound...]))
  }

  // MARK: - Accounts

  func user(localId: String) -> FirebaseUser? { users[localId] }

  func user(email: String) -> FirebaseUser? { localIdForEmail[email].flatMap { users[$0] } }

  func user(initialEmail: String) -> FirebaseUser? { localIdForInitialEmail[initialEmail].flatMap { users[$0] } }

  func user(phoneNumber: String) -> FirebaseUser? { localIdForPhone[phoneNumber].flatMap { users[$0] } }

  func user(providerId: String, rawId: String) -> FirebaseUser? {
    localIdForProvider[providerId + "\u{0}" + rawId].flatMap { users[$0] }
  }

  func newLocalId() -> String {
    var localId = FirebaseRandom.alphanumeric(28)
    while users[localId] != nil { localId = FirebaseRandom.alphanumeric(28) }
    return localId
  }

  /// Creates or replaces the account (persisted first).
  func save(_ user: FirebaseUser) throws {
    if persistent {
      try store.put(Self.usersTable, key: storageKey(user.localId), user.storageJSON(projectId: stateKey))
    }
    apply(user)
  }

  /// Creates or replaces several accounts: all stored in one write, or none.
  func saveAll(_ users: [FirebaseUser]) throws {
    if persistent {
      try store.apply(
        users.map {
          .put(table: Self.usersTable, key: storageKey($0.localId), document: $0.storageJSON(projectId: stateKey))
        })
    }
    users.forEach(apply)
  }

  func delete(_ localId: String) throws {
    guard users[localId] != nil else { return }
    try store.delete(Self.usersTable, key: storageKey(localId))
    unindex(localId)
    users[localId] = nil
    localIdOrder.remove(localId)
  }

  /// Deletes every account; pending codes are kept (`state.ts` `deleteAllAccounts`).
  func deleteAllAccounts() throws {
    for localId in users.keys.sorted() {
      try store.delete(Self.usersTable, key: storageKey(localId))
      unindex(localId)
      users[localId] = nil
    }
    localIdOrder = OrderedIndex()
  }

  /// Accounts ordered by localId, after `startToken` when given, at most `limit` (nil: all).
  func usersByLocalId(after startToken: String? = nil, limit: Int? = nil) -> [FirebaseUser] {
    let localIds =
      startToken.map { localIdOrder.keys(from: $0, inclusive: false, limit: limit) }
      ?? localIdOrder.ascending(offset: 0, limit: limit ?? localIdOrder.count)
    return localIds.compactMap { users[$0] }
  }

  private func apply(_ user: FirebaseUser) {
    unindex(user.localId)
    users[user.localId] = user
    localIdOrder.insert(user.localId)
    if let email = user.email { localIdForEmail[email] = user.localId }
    if let initialEmail = user.initialEmail { localIdForInitialEmail[initialEmail] = user.localId }
    if let phone = user.phoneNumber { localIdForPhone[phone] = user.localId }
    for info in user.federated { localIdForProvider[info.providerId + "\u{0}" + info.rawId] = user.localId }
  }

  private func unindex(_ localId: String) {
    guard let old = users[localId] else { return }
    if let email = old.email, localIdForEmail[email] == localId { localIdForEmail[email] = nil }
    if let email = old.initialEmail, localIdForInitialEmail[email] == localId { localIdForInitialEmail[email] = nil }
    if let phone = old.phoneNumber, localIdForPhone[phone] == localId { localIdForPhone[phone] = nil }
    for info in old.federated where localIdForProvider[info.providerId + "\u{0}" + info.rawId] == localId {
      localIdForProvider[info.providerId + "\u{0}" + info.rawId] = nil
    }
  }

  // MARK: - Out-of-band codes

  /// Stores a new code; `link` builds the action link from the code.
  func createOob(
    email: String, newEmail: String?, requestType: String, createdAt: Int? = nil,
    link: (String) -> String
  ) throws -> FirebaseOob {
    var code = FirebaseRandom.base64URL(54)
    while oobs[code] != nil { code = FirebaseRandom.base64URL(54) }
    let oob = FirebaseOob(
      oobCode: code, email: email, newEmail: newEmail, requestType: requestType,
      oobLink: link(code), sequence: nextOobSequence, createdAt: createdAt)
    try store.put(Self.oobTable, key: storageKey(code), oob.storageJSON(projectId: stateKey))
    nextOobSequence += 1
    oobs[code] = oob
    return oob
  }

  func oob(_ code: String) -> FirebaseOob? { oobs[code] }

  func deleteOob(_ code: String) throws {
    guard oobs[code] != nil else { return }
    try store.delete(Self.oobTable, key: storageKey(code))
    oobs[code] = nil
  }

  var oobsInOrder: [FirebaseOob] { oobs.values.sorted { $0.sequence < $1.sequence } }

  // MARK: - Config

  func setConfig(allowDuplicateEmails: Bool, emailPrivacy: Bool, emailSignIn: FirebaseEmailSignIn? = nil) throws {
    let emailSignIn = emailSignIn ?? self.emailSignIn
    let record: JSON = [
      "projectId": .string(stateKey), "allowDuplicateEmails": .bool(allowDuplicateEmails),
      "emailPrivacy": .bool(emailPrivacy), "emailSignInEnabled": .bool(emailSignIn.enabled),
      "passwordRequired": .bool(emailSignIn.passwordRequired),
      "hashSignerKey": .string(Base64.encode(hashConfig.signerKey)),
      "hashSaltSeparator": .string(Base64.encode(hashConfig.saltSeparator)),
      "hashRounds": .int(hashConfig.rounds), "hashMemoryCost": .int(hashConfig.memoryCost),
      "totpAdjacentIntervals": totpAdjacentIntervals.map(JSON.int) ?? .null, "totpConfigured": .bool(totpConfigured),
    ]
    try store.put(Self.configTable, key: stateKey, record)
    hashConfigStored = true
    self.allowDuplicateEmails = allowDuplicateEmails
    self.emailPrivacy = emailPrivacy
    self.emailSignIn = emailSignIn
  }

  /// Switches the TOTP provider on (with its `adjacentIntervals`) or off.
  func setTOTP(adjacentIntervals: Int?) throws {
    let previous = (totpAdjacentIntervals, totpConfigured)
    (totpAdjacentIntervals, totpConfigured) = (adjacentIntervals, true)
    do {
      try setConfig(allowDuplicateEmails: allowDuplicateEmails, emailPrivacy: emailPrivacy)
    } catch {
      (totpAdjacentIntervals, totpConfigured) = previous
      throw error
    }
  }

  /// The TOTP provider's `adjacentIntervals` in effect (nil: TOTP off): as configured, else on
  /// (Identity Platform's default of 5) in the default mode and off like production.
  func totpIntervals(likeProduction: Bool) -> Int? {
    totpConfigured ? totpAdjacentIntervals : likeProduction ? nil : FirebaseMfaRoutes.totpAdjacentIntervals
  }

  /// Stores a tenant's settings (this must be a tenant's store).
  func setTenant(_ tenant: FirebaseTenant) throws {
    try store.put(Self.tenantsTable, key: stateKey, tenant.storageJSON(projectId: projectId))
    self.tenant = tenant
  }

  /// Forgets a tenant: its settings, accounts and codes.
  func deleteTenant() throws {
    try deleteAllAccounts()
    for code in oobs.keys.sorted() { try deleteOob(code) }
    for sessionInfo in phoneCodes.keys.sorted() { try deletePhoneCode(sessionInfo) }
    try store.delete(Self.tenantsTable, key: stateKey)
    tenant = nil
  }

  // MARK: - Loading

  func load(user: FirebaseUser) { apply(user) }

  func load(oob: FirebaseOob) {
    oobs[oob.oobCode] = oob
    nextOobSequence = max(nextOobSequence, oob.sequence + 1)
  }

  func load(config: JSON) {
    allowDuplicateEmails = config["allowDuplicateEmails"]?.bool ?? allowDuplicateEmails
    emailPrivacy = config["emailPrivacy"]?.bool ?? emailPrivacy
    emailSignIn.enabled = config["emailSignInEnabled"]?.bool ?? emailSignIn.enabled
    emailSignIn.passwordRequired = config["passwordRequired"]?.bool ?? emailSignIn.passwordRequired
    totpAdjacentIntervals = config["totpAdjacentIntervals"]?.int
    totpConfigured = config["totpConfigured"]?.bool ?? false
    // Stores written before the hash config existed get one the first time a password is hashed.
    if let key = config["hashSignerKey"]?.string.flatMap({ Base64.decode($0) }),
      let separator = config["hashSaltSeparator"]?.string.flatMap({ Base64.decode($0) }),
      let rounds = config["hashRounds"]?.int, let memoryCost = config["hashMemoryCost"]?.int
    {
      hashConfig = FirebaseScryptParameters(
        signerKey: Array(key), saltSeparator: Array(separator), rounds: rounds,
        memoryCost: memoryCost)
      hashConfigStored = true
    }
  }

  /// The hash config, written to the store first if it is not there yet (so hashes made with it
  /// can be exported after a restart).
  func storedHashConfig() -> FirebaseScryptParameters {
    if !hashConfigStored { try? setConfig(allowDuplicateEmails: allowDuplicateEmails, emailPrivacy: emailPrivacy) }
    return hashConfig
  }

  /// True when `stored` is a hash of this project's own config (what sign-in leaves behind).
  func isNativeHash(_ stored: String) -> Bool { nativeHash(stored) != nil }

  /// `stored` parsed when it is a hash of this project's own config.
  func nativeHash(_ stored: String) -> FirebaseScryptHash? {
    guard stored.hasPrefix(FirebaseScryptHash.prefix), case .success(let hash) = FirebaseScryptHash.parse(stored),
      hash.parameters == hashConfig
    else { return nil }
    return hash
  }

  func load(tenant: FirebaseTenant) { self.tenant = tenant }

  func storageKey(_ id: String) -> String { stateKey + "/" + id }
}

/// Random identifiers in the official emulator's alphabets (`utils.ts`).
enum FirebaseRandom {
  private static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
  private static let base64URLAlphabet = alphanumerics + Array("_-")

  static func alphanumeric(_ length: Int) -> String { random(length, from: alphanumerics) }
  static func base64URL(_ length: Int) -> String { random(length, from: base64URLAlphabet) }

  private static func random(_ length: Int, from alphabet: [Character]) -> String {
    var generator = PooledRandom()
    return String((0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
  }
}
