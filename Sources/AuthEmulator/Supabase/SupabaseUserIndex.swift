import JSONKit

/// The indexes behind `GET /admin/users`, kept up to date by `SupabaseData.saveUser`/`deleteUser`:
/// accounts ordered by `(created_at, id)` for the pages, and by e-mail (domain, then the local
/// part reversed) so a filter that is a whole or partial address finds its matches directly.
struct SupabaseUserIndex: Sendable {
  struct CreationKey: Comparable, Sendable {
    var createdAt: Micros
    var id: String
    static func < (a: Self, b: Self) -> Bool { (a.createdAt, a.id) < (b.createdAt, b.id) }
  }

  /// `local@domain` stored as (domain, reversed local): the accounts whose address contains
  /// `L@D` are those whose domain starts with D and whose reversed local part starts with L reversed.
  struct EmailKey: Comparable, Sendable {
    var domain: String
    var reversedLocal: String
    var id: String
    static func < (a: Self, b: Self) -> Bool {
      (a.domain, a.reversedLocal, a.id) < (b.domain, b.reversedLocal, b.id)
    }
  }

  private(set) var byCreation = OrderedIndex<CreationKey>()
  private(set) var byEmail = OrderedIndex<EmailKey>()
  /// Accounts whose `full_name` contains an `@`: the only names a filter with an `@` can match.
  private(set) var atSignInName: Set<String> = []
  /// A user's entry of the listing (no identities), serialised, dropped whenever the user changes.
  private var listEntries: [String: [UInt8]] = [:]

  /// The serialised listing entry of `user` (cached).
  mutating func listEntry(_ user: SBUser) -> [UInt8] {
    if let cached = listEntries[user.id] { return cached }
    let bytes = JSON.object(user.wireObject(identities: .null)).bytes
    listEntries[user.id] = bytes
    return bytes
  }

  mutating func update(old: SBUser?, new: SBUser?) {
    if let old { listEntries[old.id] = nil }
    if let new { listEntries[new.id] = nil }
    let oldCreation = old.map { CreationKey(createdAt: $0.createdAt, id: $0.id) }
    let newCreation = new.map { CreationKey(createdAt: $0.createdAt, id: $0.id) }
    if oldCreation != newCreation {
      if let oldCreation { byCreation.remove(oldCreation) }
      if let newCreation { byCreation.insert(newCreation) }
    }
    let oldEmail = old.flatMap(Self.emailKey)
    let newEmail = new.flatMap(Self.emailKey)
    if oldEmail != newEmail {
      if let oldEmail { byEmail.remove(oldEmail) }
      if let newEmail { byEmail.insert(newEmail) }
    }
    if let old { atSignInName.remove(old.id) }
    if let new, Self.fullName(new)?.contains("@") == true { atSignInName.insert(new.id) }
  }

  static func emailKey(_ user: SBUser) -> EmailKey? {
    guard let at = user.email.firstIndex(of: "@") else { return nil }
    return EmailKey(
      domain: String(user.email[user.email.index(after: at)...]),
      reversedLocal: reversed(user.email[..<at]), id: user.id)
  }

  static func fullName(_ user: SBUser) -> String? { user.userMetadata["full_name"]?.string }

  static func reversed(_ text: Substring) -> String {
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: text.unicodeScalars.reversed())
    return String(scalars)
  }

  /// Ids of the accounts whose e-mail contains `local@domain` (no wildcard in either part).
  func emailsContaining(local: Substring, domain: Substring) -> [String] {
    let reversedLocal = Self.reversed(local)
    let domain = String(domain)
    var ids: [String] = []
    var next = byEmail.first(atLeast: EmailKey(domain: domain, reversedLocal: "", id: ""))
    while let key = next, key.domain.hasPrefix(domain) {
      let sameDomain = key.domain
      let start = EmailKey(domain: sameDomain, reversedLocal: reversedLocal, id: "")
      for match in byEmail.keys(
        from: start, while: { $0.domain == sameDomain && $0.reversedLocal.hasPrefix(reversedLocal) })
      {
        ids.append(match.id)
      }
      // The next domain: the first key past every key of this one.
      next = byEmail.first(atLeast: EmailKey(domain: sameDomain + "\u{0}", reversedLocal: "", id: ""))
    }
    return ids
  }
}

/// GoTrue's `filter`: `email LIKE '%filter%' OR raw_user_meta_data->>'full_name' ILIKE '%filter%'`
/// (`FindUsersInAudience`): a substring, with LIKE's `%`, `_` and `\` escapes; case-sensitive on the
/// (lower-case) e-mail, case-insensitive on the name.
enum GoTrueUserFilter {
  static func matches(_ user: SBUser, filter: String) -> Bool {
    if like(user.email, filter, caseInsensitive: false) { return true }
    guard let name = SupabaseUserIndex.fullName(user) else { return false }
    return like(name, filter, caseInsensitive: true)
  }

  static func hasWildcards(_ filter: String) -> Bool { filter.contains { $0 == "%" || $0 == "_" || $0 == "\\" } }

  /// `text LIKE '%' || filter || '%'`.
  static func like(_ text: String, _ filter: String, caseInsensitive: Bool) -> Bool {
    let text = caseInsensitive ? text.lowercased() : text
    let filter = caseInsensitive ? filter.lowercased() : filter
    guard hasWildcards(filter) else { return filter.isEmpty || text.contains(filter) }
    return wildcardMatch(Array(text.unicodeScalars), pattern("%" + filter + "%"))
  }

  private enum Token: Equatable { case literal(Unicode.Scalar), one, any }

  private static func pattern(_ text: String) -> [Token] {
    var tokens: [Token] = []
    var escaped = false
    for scalar in text.unicodeScalars {
      if escaped {
        tokens.append(.literal(scalar))
        escaped = false
      } else if scalar == "\\" {
        escaped = true
      } else {
        tokens.append(scalar == "%" ? .any : scalar == "_" ? .one : .literal(scalar))
      }
    }
    return tokens
  }

  /// Greedy matching with one backtrack point per `%` (linear in practice, O(n·m) at worst).
  private static func wildcardMatch(_ text: [Unicode.Scalar], _ tokens: [Token]) -> Bool {
    var t = 0
    var p = 0
    var star: Int?
    var resume = 0
    while t < text.count {
      if p < tokens.count, tokens[p] == .any {
        star = p
        p += 1
        resume = t
      } else if p < tokens.count, tokens[p] == .one || tokens[p] == .literal(text[t]) {
        t += 1
        p += 1
      } else if let star {
        p = star + 1
        resume += 1
        t = resume
      } else {
        return false
      }
    }
    while p < tokens.count, tokens[p] == .any { p += 1 }
    return p == tokens.count
  }
}

extension SupabaseData {
  /// One page of `GET /admin/users`, newest first unless `ascending`, with the total match count.
  /// Unfiltered: read straight off the ordered index. A filter of the form `local@domain`
  /// (no LIKE wildcard) uses the e-mail index; any other filter scans every account, as the
  /// `LIKE '%…%'` does in Postgres.
  func listUsers(filter: String, ascending: Bool, offset: Int, limit: Int) -> (total: Int, users: [SBUser]) {
    guard !filter.isEmpty else {
      let keys =
        ascending
        ? userIndex.byCreation.ascending(offset: offset, limit: limit)
        : userIndex.byCreation.descending(offset: offset, limit: limit)
      return (users.count, keys.compactMap { users[$0.id] })
    }
    var matches: [SBUser]
    let parts = filter.split(separator: "@", maxSplits: 2, omittingEmptySubsequences: false)
    if parts.count == 2, !GoTrueUserFilter.hasWildcards(filter) {
      var ids = Set(userIndex.emailsContaining(local: parts[0], domain: parts[1]))
      for id in userIndex.atSignInName {
        if let user = users[id], GoTrueUserFilter.matches(user, filter: filter) { ids.insert(id) }
      }
      matches = ids.compactMap { users[$0] }
    } else {
      matches = users.values.filter { GoTrueUserFilter.matches($0, filter: filter) }
    }
    let key = { (user: SBUser) in SupabaseUserIndex.CreationKey(createdAt: user.createdAt, id: user.id) }
    matches.sort { ascending ? key($0) < key($1) : key($1) < key($0) }
    guard offset < matches.count else { return (matches.count, []) }
    return (matches.count, Array(matches[offset...].prefix(limit)))
  }
}
