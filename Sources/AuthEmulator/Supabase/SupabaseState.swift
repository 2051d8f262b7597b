import Essentials
import JSONKit
import Synchronization

/// Everything the GoTrue side knows, with the indexes it needs. Mutate only through the
/// `save…`/`delete…` methods: they keep the indexes and note what must be written to the store.
struct SupabaseData: Sendable {
  private(set) var users: [String: SBUser] = [:]
  private(set) var userIDByEmail: [String: String] = [:]
  private(set) var userIDByPhone: [String: String] = [:]
  private(set) var sessions: [String: SBSession] = [:]
  private(set) var sessionIDsByUser: [String: Set<String>] = [:]
  private(set) var refreshTokens: [String: SBRefreshToken] = [:]
  private(set) var tokensBySession: [String: [String]] = [:]
  private(set) var nextSequence: Int64 = 1
  /// Ordered and e-mail indexes for the admin listing (`SupabaseUserIndex.swift`); kept by
  /// `saveUser`/`deleteUser` (writable only for its cache of serialised list entries).
  var userIndex = SupabaseUserIndex()
  /// Serialised single-user JSON (with identities), dropped whenever the user changes.
  var userJSONCache: [String: [UInt8]] = [:]
  /// `auth.audit_log_entries` (`SupabaseData+Audit.swift`).
  var audit = SupabaseAudit()
  /// Social providers some account has signed in with: `/settings` shows them enabled.
  private(set) var socialProviders: Set<String> = []
  /// PKCE flow states (`SupabaseFlowState.swift`) by id, and their ids by auth code.
  private(set) var flowStates: [String: SBFlowState] = [:]
  private(set) var flowStateIDByAuthCode: [String: String] = [:]
  fileprivate var changes: [DocumentChange] = []
  fileprivate var persistent = false

  static let usersTable = "supabase_users"
  static let sessionsTable = "supabase_sessions"
  static let refreshTokensTable = "supabase_refresh_tokens"
  static let flowStatesTable = "supabase_flow_states"

  func user(email: String) -> SBUser? { userIDByEmail[email].flatMap { users[$0] } }
  /// The account with this phone number (digits without `+`, as stored).
  func user(phone: String) -> SBUser? { userIDByPhone[phone].flatMap { users[$0] } }

  /// Notes a write of another table (audit entries) for the store; kept with the transaction's others.
  mutating func note(_ change: DocumentChange) {
    if persistent { changes.append(change) }
  }

  mutating func saveUser(_ user: SBUser) {
    if let old = users[user.id], old.email != user.email, userIDByEmail[old.email] == user.id {
      userIDByEmail[old.email] = nil
    }
    if let old = users[user.id], old.phone != user.phone, userIDByPhone[old.phone] == user.id {
      userIDByPhone[old.phone] = nil
    }
    if !user.phone.isEmpty { userIDByPhone[user.phone] = user.id }
    userIndex.update(old: users[user.id], new: user)
    users[user.id] = user
    for identity in user.otherIdentities where !identity.provider.hasPrefix("sso:") && identity.provider != "phone" {
      socialProviders.insert(identity.provider)
    }
    if !user.email.isEmpty { userIDByEmail[user.email] = user.id }
    userJSONCache[user.id] = nil
    if persistent { changes.append(.put(table: Self.usersTable, key: user.id, document: user.document)) }
  }

  /// Removes the user with every session and refresh token.
  mutating func deleteUser(id: String) {
    guard let user = users.removeValue(forKey: id) else { return }
    userIndex.update(old: user, new: nil)
    if userIDByEmail[user.email] == id { userIDByEmail[user.email] = nil }
    if userIDByPhone[user.phone] == id { userIDByPhone[user.phone] = nil }
    userJSONCache[id] = nil
    if persistent { changes.append(.delete(table: Self.usersTable, key: id)) }
    for sessionID in sessionIDsByUser[id] ?? [] { deleteSession(id: sessionID) }
    for flow in flowStates.values where flow.userID == id { deleteFlowState(id: flow.id) }
  }

  mutating func saveFlowState(_ flow: SBFlowState) {
    flowStates[flow.id] = flow
    flowStateIDByAuthCode[flow.authCode] = flow.id
    note(.put(table: Self.flowStatesTable, key: flow.id, document: flow.document))
  }

  mutating func deleteFlowState(id: String) {
    guard let flow = flowStates.removeValue(forKey: id) else { return }
    flowStateIDByAuthCode[flow.authCode] = nil
    note(.delete(table: Self.flowStatesTable, key: id))
  }

  mutating func saveSession(_ session: SBSession) {
    sessions[session.id] = session
    sessionIDsByUser[session.userID, default: []].insert(session.id)
    if persistent { changes.append(.put(table: Self.sessionsTable, key: session.id, document: session.document)) }
  }

  /// Removes the session and its refresh tokens (logout).
  mutating func deleteSession(id: String) {
    guard let session = sessions.removeValue(forKey: id) else { return }
    sessionIDsByUser[session.userID]?.remove(id)
    if sessionIDsByUser[session.userID]?.isEmpty == true { sessionIDsByUser[session.userID] = nil }
    if persistent { changes.append(.delete(table: Self.sessionsTable, key: id)) }
    for token in tokensBySession.removeValue(forKey: id) ?? [] {
      refreshTokens[token] = nil
      if persistent { changes.append(.delete(table: Self.refreshTokensTable, key: token)) }
    }
  }

  func sessions(ofUser userID: String) -> [SBSession] { (sessionIDsByUser[userID] ?? []).compactMap { sessions[$0] } }

  mutating func saveRefreshToken(_ token: SBRefreshToken) {
    if refreshTokens.updateValue(token, forKey: token.token) == nil {
      tokensBySession[token.sessionID, default: []].append(token.token)
    }
    nextSequence = max(nextSequence, token.sequence + 1)
    if persistent {
      changes.append(.put(table: Self.refreshTokensTable, key: token.token, document: token.document))
    }
  }

  /// Forgets the oldest revoked refresh tokens of a session beyond the newest `keep` (a session
  /// refreshed all day must not grow without bound). The active token is never dropped.
  mutating func pruneRefreshTokens(ofSession sessionID: String, keep: Int) {
    guard var tokens = tokensBySession[sessionID], tokens.count > keep else { return }
    var excess = tokens.count - keep
    var index = 0
    while excess > 0 && index < tokens.count {
      let token = tokens[index]
      if refreshTokens[token]?.revoked ?? true {
        refreshTokens[token] = nil
        if persistent { changes.append(.delete(table: Self.refreshTokensTable, key: token)) }
        tokens.remove(at: index)
        excess -= 1
      } else {
        index += 1
      }
    }
    tokensBySession[sessionID] = tokens
  }

  /// Sign-ins since the last sweep for expired sessions (`GoTrueContext.startSession`).
  var sessionStartsSinceSweep = 0

  mutating func takeSequence() -> Int64 {
    defer { nextSequence += 1 }
    return nextSequence
  }

  /// The newest refresh token of the session that is not revoked.
  func activeRefreshToken(ofSession sessionID: String) -> SBRefreshToken? {
    for token in (tokensBySession[sessionID] ?? []).reversed() {
      if let record = refreshTokens[token], !record.revoked { return record }
    }
    return nil
  }

  func refreshTokens(ofSession sessionID: String) -> [SBRefreshToken] {
    (tokensBySession[sessionID] ?? []).compactMap { refreshTokens[$0] }
  }

  fileprivate mutating func load(from store: any DocumentStore) throws {
    for (key, document) in try store.loadAll(Self.usersTable) {
      if let user = SBUser(document: document) {
        saveUser(user)
      } else {
        store.noteUnreadable(Self.usersTable, key: key)
      }
    }
    for (key, document) in try store.loadAll(Self.sessionsTable) {
      guard let session = SBSession(document: document) else {
        store.noteUnreadable(Self.sessionsTable, key: key)
        continue
      }
      if users[session.userID] != nil { saveSession(session) }
    }
    let tokens = try store.loadAll(Self.refreshTokensTable).compactMap { row -> SBRefreshToken? in
      guard let token = SBRefreshToken(document: row.document) else {
        store.noteUnreadable(Self.refreshTokensTable, key: row.key)
        return nil
      }
      return token
    }
    for token in tokens.sorted(by: { $0.sequence < $1.sequence }) where sessions[token.sessionID] != nil {
      saveRefreshToken(token)
    }
    for (key, document) in try store.loadAll(Self.flowStatesTable) {
      guard let flow = SBFlowState(document: document) else {
        store.noteUnreadable(Self.flowStatesTable, key: key)
        continue
      }
      if users[flow.userID] != nil { saveFlowState(flow) }
    }
    try audit.load(from: store)
    changes.removeAll()
  }
}

/// The lock around `SupabaseData`, and the write-through to the `DocumentStore`: changes made in
/// `transaction` are stored before it returns, so before any response is sent.
final class SupabaseState: Sendable {
  private let data: Mutex<SupabaseData>
  private let store: any DocumentStore

  init(store: any DocumentStore) throws {
    self.store = store
    var loaded = SupabaseData()
    try loaded.load(from: store)
    loaded.persistent = store.isPersistent
    data = Mutex(loaded)
  }

  /// Reads (and may fill caches) under the lock.
  func read<T: Sendable, E: Error>(_ body: (inout SupabaseData) throws(E) -> T) throws(E) -> T {
    try data.withLock { data throws(E) in try body(&data) }
  }

  /// Runs `body` under the lock and writes what it changed to the store, also when it throws
  /// after changing something (memory and disk stay the same). When the write fails (a full disk)
  /// nothing is acknowledged and memory goes back to what the store holds: the failed transaction
  /// was rolled back there, so reloading undoes it here too.
  func transaction<T: Sendable>(_ body: (inout SupabaseData) throws -> T) throws -> T {
    try data.withLock { data in
      let result: Result<T, any Error> = Result { try body(&data) }
      if !data.changes.isEmpty {
        let changes = data.changes
        data.changes.removeAll(keepingCapacity: true)
        do {
          try store.apply(changes)
        } catch {
          reloadFromStore(into: &data)
          throw GoTrueError.internal("Database error: \(error)")
        }
      }
      return try result.get()
    }
  }

  /// Replaces memory with the store's content (after a failed write; the lock is held). If even
  /// reading fails, memory is kept as it is: the store's error already went to the client.
  private func reloadFromStore(into data: inout SupabaseData) {
    var fresh = SupabaseData()
    guard (try? fresh.load(from: store)) != nil else { return }
    fresh.persistent = data.persistent
    data = fresh
  }
}
