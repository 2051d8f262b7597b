import Crypto
import Essentials
import JSONKit

/// What happened to one account of `user import`.
package struct ImportOutcome: Sendable, Equatable {
  package enum Status: String, Sendable {
    case imported
    case skippedExisting = "skipped_existing"
    case failed
    /// `--dry-run`: what would be sent.
    case wouldImport = "would_import"
    /// Sent, and no answer came back (a timeout, a cut connection, a second Ctrl-C): the account
    /// may have been created; `--resume` sends it again and finds it there if it was.
    case unknown
    /// Never sent: the import was stopped first.
    case notStarted = "not_started"
    /// Not sent: it would have arrived weaker than it left, and no flag said yes to that.
    case heldBack = "held_back"

    /// Done: `--resume` leaves an account with this status in the report.
    package func isDone(code: String?) -> Bool {
      switch self {
      case .imported, .skippedExisting: return true
      // A dry run sent nothing: resuming from its report sends everything.
      case .wouldImport, .unknown, .notStarted, .heldBack: return false
      case .failed:
        return !AuthError.mayPassLaterCodes.contains(code ?? "")
      }
    }
  }

  /// Position in the input (0-based).
  package var index: Int
  package var status: Status
  /// The rest, held once and shared by copies until one changes (copy on write): an outcome is
  /// handed through the importer, the report, the audit log and the tally, and a copy is one
  /// reference, not seven.
  private var texts: Shared<Texts>

  struct Texts: Sendable, Equatable {
    var email: String?
    var sourceId: String?
    var newId: String?
    var withoutPassword: String?
    var errorCode: String?
    var message: String?
    var losses: [ImportLoss] = []
  }

  package var email: String? {
    get { texts.value.email }
    set { texts.value.email = newValue }
  }
  /// The id in the input, and the id the account has on the target when that is another one.
  package var sourceId: String? {
    get { texts.value.sourceId }
    set { texts.value.sourceId = newValue }
  }
  package var newId: String? {
    get { texts.value.newId }
    set { texts.value.newId = newValue }
  }
  /// Imported without a working password (no hash, or one the target cannot take): why.
  package var withoutPassword: String? {
    get { texts.value.withoutPassword }
    set { texts.value.withoutPassword = newValue }
  }
  /// `failed`: the error code and message.
  package var errorCode: String? {
    get { texts.value.errorCode }
    set { texts.value.errorCode = newValue }
  }
  package var message: String? {
    get { texts.value.message }
    set { texts.value.message = newValue }
  }
  /// What the account lost on the way (or would have: `heldBack`).
  package var losses: [ImportLoss] {
    get { texts.value.losses }
    set { texts.value.losses = newValue }
  }

  package init(index: Int, account: PortableAccount, status: Status) {
    self.index = index
    self.status = status
    texts = Shared(Texts(email: account.email, sourceId: account.id))
  }

  /// The `--report` line (never a hash).
  package var json: JSON {
    var object = JSONObject()
    object["email"] = .optional(email)
    object["id"] = .optional(sourceId)
    if let newId { object["new_id"] = .string(newId) }
    object["status"] = .string(status.rawValue)
    if let withoutPassword { object["without_password"] = .string(withoutPassword) }
    if let errorCode { object["error"] = .string(errorCode) }
    if let message { object["message"] = .string(message) }
    if !losses.isEmpty { object["losses"] = .array(losses.map { .string($0.rawValue) }) }
    // What this account lost (or would lose) on the way, by the ledger's names: every account
    // that was (or would be) created says, an empty list included.
    if status == .imported || status == .wouldImport { object["lost"] = .array(losses.map { .string($0.rawValue) }) }
    return .object(object)
  }

  /// The `--report` line of an import into `backend` (`BackendKey.canonical`).
  package func reportLine(backend: String) -> JSON {
    guard case .object(var object) = json else { return json }
    object["backend"] = .string(backend)
    return .object(object)
  }

  /// What a `--report` line says of its account: the key it is known by (id, else address in
  /// lower case), whether it is done, and the backend it was imported into (nil in reports written
  /// before lines named it); nil for a line that is no import report line.
  package static func reported(_ json: JSON) -> (key: String, done: Bool, backend: String?)? {
    guard let status = json["status"]?.string.flatMap(Status.init(rawValue:)) else { return nil }
    guard let key = json["id"]?.string ?? json["email"]?.string?.lowercased() else { return nil }
    return (key, status.isDone(code: json["error"]?.string), json["backend"]?.string)
  }

  /// A request that never reached the backend (refused, no route, no such host): nothing was
  /// made, and the accounts after it are not sent either.
  package var neverReachedBackend: Bool { status == .failed && errorCode == ErrorCode.networkUnreachable.rawValue }

  /// The key `reported` gives an account of the file.
  package static func key(of account: PortableAccount) -> String? {
    account.id ?? account.email?.lowercasedKeepingLower
  }

  /// The outcome of a request that went out and got no answer, or was never sent (stopped first,
  /// or the backend could not be reached: `error.neverSent`).
  package static func interrupted(_ outcome: ImportOutcome, by error: AuthError?, sent: Bool) -> ImportOutcome {
    var changed = outcome
    changed.status = sent ? .unknown : .notStarted
    changed.errorCode = error?.code.rawValue
    if sent {
      changed.message =
        "Sent, but no answer came back (\(error?.message ?? "interrupted")): the account may have been created; --resume sends it again."
    } else if let error, error.neverSent {
      changed.message = "Not sent: \(error.message)"
    } else {
      changed.message = "Not started: the import was stopped first."
    }
    changed.withoutPassword = nil
    return changed
  }

}

extension Guarded where Value == AuthError? {
  /// Keeps the reason of the first of `outcomes` that never reached the backend, unless one is kept
  /// already: the importers and the sender stop sending once it is set.
  package func keepUnreachable(_ outcomes: some Collection<ImportOutcome>) {
    // By index: reading two fields in place copies no outcome (a call's thousand, every chunk).
    guard let first = outcomes.indices.first(where: { outcomes[$0].neverReachedBackend }) else { return }
    update { $0 = $0 ?? AuthError.unreachable(outcomes[first].message) }
  }
}

/// Imports accounts into a backend: a provider that can do it conforms (the Supabase and Firebase
/// admin providers).
package protocol AccountImporter: Sendable {
  /// Creates the accounts, skipping those whose address or id is already taken. Never overwrites.
  /// `progress` is called with the final outcomes as they are known. Once `stop` is stopped no
  /// new request starts: what was never sent is `notStarted`.
  func importAccounts(
    _ accounts: [PortableAccount], jobs: Int, stop: BatchStop?, progress: @escaping @Sendable ([ImportOutcome]) -> Void
  ) async -> [ImportOutcome]

  /// Accounts one request carries at most (1: a request per account; Firebase's batchCreate:
  /// 1,000). The import keeps `jobs` the limit on requests at a time whatever it sends at once.
  var accountsPerRequest: Int { get }
}

/// How each backend takes a portable record (pure: tested without a server).
package enum AccountImportPlan {
  // MARK: Supabase (`POST /admin/users`)

  /// GoTrue's "ban forever": about a hundred years.
  package static let disabledBan = "876000h"

  /// The body of `POST /admin/users`, and why the account will have no working password (nil: it will).
  package static func supabaseBody(_ account: PortableAccount, now: Int) -> (body: JSONObject, withoutPassword: String?)
  {
    var body = JSONObject()
    if let id = account.id, isUUID(id) { body["id"] = .string(id.lowercased()) }
    body["email"] = .optional(account.email)
    body["email_confirm"] = .bool(account.emailVerified ?? false)
    // GoTrue stores the digits without `+`; confirmed only when the file says it was (a number
    // Firebase held always was).
    if let phone = account.phone.flatMap(PortableAccount.e164) {
      body["phone"] = .string(String(phone.dropFirst()))
      body["phone_confirm"] = .bool(account.phoneConfirmed == true)
    }
    var userMetadata = account.userMetadata ?? JSONObject()
    if let name = account.displayName, !name.isEmpty, userMetadata["full_name"] == nil {
      userMetadata["full_name"] = .string(name)
    }
    if let photo = account.photoURL, !photo.isEmpty, userMetadata["avatar_url"] == nil {
      userMetadata["avatar_url"] = .string(photo)
    }
    if !userMetadata.isEmpty { body["user_metadata"] = .object(userMetadata) }
    var appMetadata = account.appMetadata ?? JSONObject()
    // GoTrue manages these itself (the sign-in methods of the account).
    appMetadata["provider"] = nil
    appMetadata["providers"] = nil
    if !appMetadata.isEmpty { body["app_metadata"] = .object(appMetadata) }
    switch account.ban(at: now) {
    case .forever?: body["ban_duration"] = .string(disabledBan)
    // To the second, so that the ban ends when it ended on the source.
    case .until(let end)?: body["ban_duration"] = .string("\(end - now)s")
    case nil: break
    }
    let password = supabasePassword(account)
    if let hash = password.hash { body["password_hash"] = .string(hash) }
    return (body, password.withoutPassword)
  }

  /// The `password_hash` GoTrue is sent, or why there is none. The import's check needs only this.
  package static func supabasePassword(_ account: PortableAccount) -> (hash: String?, withoutPassword: String?) {
    supabasePassword(account, kind: account.passwordHash.map(PasswordHashString.kind(of:)))
  }

  /// `supabasePassword` for a hash whose kind is known (the check reads it once).
  package static func supabasePassword(_ account: PortableAccount, kind: PasswordHashString.Kind?)
    -> (hash: String?, withoutPassword: String?)
  {
    switch kind {
    case .bcrypt?, .argon2?:
      return (account.passwordHash, nil)
    case .firebaseScrypt(let config, let salt, let hash)?:
      // Written again as GoTrue parses it: standard base64, `n` as memoryCost.
      return (PasswordHashString.firebaseScrypt(config, salt: salt, hash: hash), nil)
    case .firebaseImport(let config, _, _)?:
      return (nil, "Supabase cannot check \(config.algorithm) hashes")
    case .unknown?:
      return (nil, "the password hash is of a kind Supabase does not take")
    case nil:
      return (nil, account.passwordNote ?? "no password hash in the record")
    }
  }

  static func isUUID(_ text: String) -> Bool { UUID(uuidString: text) != nil }

  // MARK: Firebase (`accounts:batchCreate`)

  /// The hash kinds a batchCreate call takes one of (`hashAlgorithm` and its parameters).
  package enum FirebaseHashGroup: Hashable, Sendable {
    case none, bcrypt
    /// Firebase's scrypt, or another kind with its parameters (`FirebaseHashConfig.algorithm`).
    case scrypt(FirebaseHashConfig)

    /// The call's hash fields (standard base64, as the API takes it).
    package var fields: JSONObject {
      switch self {
      case .none: return JSONObject()
      case .bcrypt: return JSONObject([("hashAlgorithm", "BCRYPT")])
      case .scrypt(let config): return config.batchCreateFields
      }
    }
  }

  /// One `users[]` entry of batchCreate, its hash group, and why it has no password (nil: it has).
  package static func firebaseEntry(_ account: PortableAccount, localId: String, now: Int)
    -> (entry: JSONObject, group: FirebaseHashGroup, withoutPassword: String?)
  {
    var entry = JSONObject()
    // Room for every member it can have: no growing while it is built (one per account sent).
    entry.reserveCapacity(12)
    entry["localId"] = .string(localId)
    entry["email"] = .optional(account.email)
    if let verified = account.emailVerified { entry["emailVerified"] = .bool(verified) }
    if let name = account.displayName ?? account.userMetadata?["full_name"]?.string, !name.isEmpty {
      entry["displayName"] = .string(name)
    }
    // Firebase's number is a way in: only one a code confirmed goes there.
    if let phone = account.phone.flatMap(PortableAccount.e164), account.phoneConfirmed == true {
      entry["phoneNumber"] = .string(phone)
    }
    if let photo = account.photoURL, !photo.isEmpty { entry["photoUrl"] = .string(photo) }
    if account.ban(at: now) != nil { entry["disabled"] = true }
    if let created = account.createdAt.flatMap(UnixTime.parseISO) {
      entry["createdAt"] = .string(String(created * 1000))
    }
    if let last = account.lastSignInAt.flatMap(UnixTime.parseISO) {
      entry["lastLoginAt"] = .string(String(last * 1000))
    }
    if let claims = customClaims(account), let text = claimsText(claims) { entry["customAttributes"] = .string(text) }
    let password = firebasePassword(account)
    if let hash = password.hash { entry["passwordHash"] = .string(hash) }
    if let salt = password.salt { entry["salt"] = .string(salt) }
    return (entry, password.group, password.withoutPassword)
  }

  /// The password part of a batchCreate entry (standard base64): its hash group, or why there is
  /// none. The import's check needs only this part.
  package static func firebasePassword(_ account: PortableAccount)
    -> (hash: String?, salt: String?, group: FirebaseHashGroup, withoutPassword: String?)
  {
    firebasePassword(account, kind: account.passwordHash.map(PasswordHashString.kind(of:)))
  }

  /// `firebasePassword` for a hash whose kind is known (the check reads it once).
  package static func firebasePassword(_ account: PortableAccount, kind: PasswordHashString.Kind?)
    -> (hash: String?, salt: String?, group: FirebaseHashGroup, withoutPassword: String?)
  {
    if let reason = firebaseWithoutPassword(account, kind: kind) { return (nil, nil, .none, reason) }
    switch kind {
    case .bcrypt?:
      // From the bytes in place: `Data` made from a `String.UTF8View` goes a byte at a time.
      let hash = account.passwordHash ?? ""
      return (Base64.encode(hash.utf8), nil, .bcrypt, nil)
    case .firebaseScrypt(let config, let salt, let digest)?, .firebaseImport(let config, let salt, let digest)?:
      return (digest, salt, .scrypt(config), nil)
    case .argon2?, .unknown?, nil:
      return (nil, nil, .none, "the password hash is of a kind Firebase does not take")
    }
  }

  /// Why an account would reach Firebase without its password (nil: its hash goes with it). The
  /// check asks only this, so it encodes nothing.
  package static func firebaseWithoutPassword(_ account: PortableAccount, kind: PasswordHashString.Kind?) -> String? {
    guard account.passwordHash != nil, let kind else { return account.passwordNote ?? "no password hash in the record" }
    switch kind {
    case .bcrypt, .firebaseScrypt, .firebaseImport: return nil
    case .argon2: return "Firebase cannot import argon2 hashes"
    case .unknown: return "the password hash is of a kind Firebase does not take"
    }
  }

  /// The claims as Firebase's `customAttributes` text; nil when longer than it takes (the ledger
  /// counts them as `claims`).
  static func claimsText(_ claims: JSONObject) -> String? {
    let text = String(decoding: JSON.object(claims).bytes, as: UTF8.self)
    return text.utf8.count <= FidelityLedger.claimsLimit ? text : nil
  }

  /// Firebase custom claims: `app_metadata.claims` (as the export writes them), else Supabase's
  /// app_metadata without the keys GoTrue manages.
  static func customClaims(_ account: PortableAccount) -> JSONObject? {
    guard var metadata = account.appMetadata else { return nil }
    if case .object(let claims)? = metadata["claims"] { return claims.isEmpty ? nil : claims }
    metadata["provider"] = nil
    metadata["providers"] = nil
    return metadata.isEmpty ? nil : metadata
  }

  /// A Firebase-style id (28 letters and digits) for a record without one, made from its address
  /// (else its phone), so the same file imported twice never makes a second account; a random one
  /// when it has neither.
  package static func derivedLocalId(_ account: PortableAccount) -> String {
    guard let name = account.email?.lowercased() ?? account.phone, !name.isEmpty else { return newLocalId() }
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    let digest = Array(SHA256.hash(data: Array(("authsh-import:" + name).utf8)))
    return String((0..<28).map { alphabet[Int(digest[$0]) % alphabet.count] })
  }

  /// A Firebase-style id (28 letters and digits) for a record without one.
  package static func newLocalId() -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    var generator = SystemRandomNumberGenerator()
    return String((0..<28).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
  }
}
