import Essentials
import HTTPServerKit
import JSONKit

/// One row of `auth.audit_log_entries` (`models/audit_log_entry.go`).
struct SBAuditEntry: Sendable {
  var id: String
  /// `{action, actor_id, actor_name?, actor_username, actor_via_sso, log_type, traits?}`, keys
  /// sorted as Go encodes a map.
  var payload: JSONObject
  var createdAt: Micros
  var ipAddress: String
  /// Insertion order (entries made in one microsecond keep their order).
  var sequence: Int64

  var wire: JSON {
    [
      "id": .string(id), "payload": .object(payload), "created_at": .string(GoTime.format(createdAt)),
      "ip_address": .string(ipAddress),
    ]
  }

  var document: JSON {
    [
      "id": .string(id), "payload": .object(payload), "created_at": micros(createdAt), "ip_address": .string(ipAddress),
      "sequence": .int(Int(sequence)),
    ]
  }

  init(id: String, payload: JSONObject, createdAt: Micros, ipAddress: String, sequence: Int64) {
    self.id = id
    self.payload = payload
    self.createdAt = createdAt
    self.ipAddress = ipAddress
    self.sequence = sequence
  }

  init?(document json: JSON) {
    guard let id = json["id"]?.string, let payload = json["payload"]?.object,
      let createdAt = micros(json["created_at"]),
      let sequence = json["sequence"]?.int
    else { return nil }
    self.init(
      id: id, payload: payload, createdAt: createdAt, ipAddress: json["ip_address"]?.string ?? "",
      sequence: Int64(sequence))
  }
}

/// Who did it: a user, or the admin role of the key (GoTrue's admin "user" has the nil id and the
/// role as its address).
struct SBAuditActor {
  var id: String
  var username: String
  var viaSSO: Bool
  var name: JSON?

  static func user(_ user: SBUser) -> SBAuditActor {
    SBAuditActor(
      id: user.id, username: user.phone.isEmpty ? user.email : user.phone, viaSSO: user.isSSOUser,
      name: user.userMetadata["full_name"])
  }

  static func admin(role: String) -> SBAuditActor {
    SBAuditActor(id: "00000000-0000-0000-0000-000000000000", username: role, viaSSO: false, name: nil)
  }
}

/// The audit trail, oldest first, capped (a load test signs in all day; the oldest entries go).
struct SupabaseAudit: Sendable {
  private(set) var entries: [SBAuditEntry] = []
  private var nextSequence: Int64 = 1
  static let table = "supabase_audit_log"
  /// The newest this many entries are kept; the oldest go a thousand at a time (not one per
  /// sign-in, which would move the whole array every time).
  static let capacity = 10_000
  static let trimBatch = 1_000

  /// `ActionLogTypeMap`.
  static let logTypes: [String: String] = [
    "login": "account", "logout": "account", "invite_accepted": "account",
    "user_signedup": "team", "user_invited": "team", "user_deleted": "team",
    "token_revoked": "token", "token_refreshed": "token",
    "user_modified": "user", "user_recovery_requested": "user", "user_reauthenticate_requested": "user",
    "user_confirmation_requested": "user", "user_repeated_signup": "user", "user_updated_password": "user",
    "identity_linked": "user", "identity_unlinked": "user",
    "factor_in_progress": "factor", "factor_unenrolled": "factor", "challenge_created": "factor",
    "verification_attempted": "factor", "factor_deleted": "factor", "factor_updated": "factor",
  ]

  mutating func load(from store: any DocumentStore) throws {
    var loaded: [SBAuditEntry] = []
    for (key, document) in try store.loadAll(Self.table) {
      if let entry = SBAuditEntry(document: document) {
        loaded.append(entry)
      } else {
        store.noteUnreadable(Self.table, key: key)
      }
    }
    entries = loaded.sorted { $0.sequence < $1.sequence }
    nextSequence = (entries.last?.sequence ?? 0) + 1
  }

  fileprivate mutating func append(_ entry: SBAuditEntry) -> [DocumentChange] {
    entries.append(entry)
    nextSequence += 1
    var changes: [DocumentChange] = [.put(table: Self.table, key: entry.id, document: entry.document)]
    if entries.count >= Self.capacity + Self.trimBatch {
      let dropped = entries.prefix(entries.count - Self.capacity)
      changes += dropped.map { .delete(table: Self.table, key: $0.id) }
      entries.removeFirst(dropped.count)
    }
    return changes
  }

  fileprivate var sequence: Int64 { nextSequence }
}

extension SupabaseData {
  /// `NewAuditLogEntry`: records `action` by `actor` (call inside the transaction that does it).
  mutating func recordAudit(
    _ action: String, actor: SBAuditActor, ip: String = "", traits: JSON? = nil,
    at now: Micros
  ) {
    var payload = JSONObject()
    payload["action"] = .string(action)
    payload["actor_id"] = .string(actor.id)
    if let name = actor.name { payload["actor_name"] = name }
    payload["actor_username"] = .string(actor.username)
    payload["actor_via_sso"] = .bool(actor.viaSSO)
    payload["log_type"] = .string(SupabaseAudit.logTypes[action] ?? "")
    if let traits = traits?.object { payload["traits"] = .object(traits.sortedByKey) }
    let entry = SBAuditEntry(
      id: EmulatorRandom.uuid(), payload: payload, createdAt: now, ipAddress: ip,
      sequence: audit.sequence)
    for change in audit.append(entry) { note(change) }
  }

  mutating func recordAudit(_ action: String, user: SBUser, ip: String = "", traits: JSON? = nil, at now: Micros) {
    recordAudit(action, actor: .user(user), ip: ip, traits: traits, at: now)
  }

  /// `FindAuditLogEntries`: newest first; `columns` matched with ILIKE '%value%'.
  func auditEntries(columns: [String], value: String) -> [SBAuditEntry] {
    let needle = value.lowercased()
    return audit.entries.reversed().filter { entry in
      guard !columns.isEmpty, !value.isEmpty else { return true }
      return columns.contains { column in
        guard let text = entry.payload[column]?.string else { return false }
        return GoTrueUserFilter.like(text, needle, caseInsensitive: true)
      }
    }
  }
}
