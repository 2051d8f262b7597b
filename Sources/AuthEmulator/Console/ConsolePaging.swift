import Essentials
import HTTPServerKit
import JSONKit

/// One line of the accounts list, the same for both backends.
struct ConsoleAccountRow: Sendable, Equatable {
  var id: String
  var email: String
  var name: String
  var phone: String
  var confirmed: Bool
  /// Firebase `disabled`, Supabase banned (or soft-deleted).
  var disabled: Bool
  var factors: Int
  var providers: [String]
  var createdMs: Int64
  var lastSignInMs: Int64?
}

/// What the accounts list shows: a search, an order, a page.
struct ConsoleListQuery: Sendable, Equatable {
  enum Sort: String, Sendable { case created, lastSignIn = "last_sign_in" }
  static let pageSize = 50

  var search = "" { didSet { needle = search.lowercased() } }
  var sort = Sort.created
  var newestFirst = true
  /// 1-based.
  var page = 1
  /// `search` lower-cased, for comparing with e-mails and names.
  private(set) var needle = ""

  /// True when the account matches the search: its e-mail (stored lower-case by both backends),
  /// id, phone or name contains it (the name in any case; computed only when the others fail).
  func matches(id: String, email: String, name: @autoclosure () -> String?, phone: String?) -> Bool {
    if needle.isEmpty { return true }
    if email.contains(needle) || id.contains(search) || id.lowercased().contains(needle) { return true }
    if let phone, !phone.isEmpty, phone.contains(needle) { return true }
    if let name = name(), name.lowercased().contains(needle) { return true }
    return false
  }
}

/// Server-side paging: each matching account contributes only a sort key (time, id); the page's
/// fifty are picked from those without sorting the rest, so a page of the first pages costs one
/// pass over the accounts.
enum ConsolePaging {
  struct Key: Comparable, Sendable {
    var time: Int64
    var id: String
    static func < (a: Key, b: Key) -> Bool { (a.time, a.id) < (b.time, b.id) }
  }

  struct Window: Sendable, Equatable {
    var ids: [String]
    var total: Int
    var page: Int
    var pageCount: Int
  }

  /// The ids of the requested page (clamped to the last one) among `keys`, in the query's order.
  static func window(_ keys: [Key], query: ConsoleListQuery) -> Window {
    let size = ConsoleListQuery.pageSize
    let pageCount = max(1, (keys.count + size - 1) / size)
    let page = min(max(1, query.page), pageCount)
    let start = (page - 1) * size
    let end = min(start + size, keys.count)
    let before: (Key, Key) -> Bool = query.newestFirst ? { $0 > $1 } : { $0 < $1 }
    let ids: [String]
    if end * 4 < keys.count {
      ids = smallest(end, of: keys, by: before)[start..<end].map(\.id)
    } else if (keys.count - start) * 4 < keys.count {
      // A page near the end: the last ones in the other order, turned round.
      let tail = smallest(keys.count - start, of: keys, by: { before($1, $0) }).reversed()
      ids = tail.prefix(end - start).map(\.id)
    } else {
      ids = keys.sorted(by: before)[start..<end].map(\.id)
    }
    return Window(ids: ids, total: keys.count, page: page, pageCount: pageCount)
  }

  /// The first `count` of `keys` in the order `before`, sorted; one pass, binary insertion into a
  /// buffer of `count`.
  static func smallest(_ count: Int, of keys: [Key], by before: (Key, Key) -> Bool) -> [Key] {
    guard count > 0 else { return [] }
    var best: [Key] = []
    best.reserveCapacity(count + 1)
    for key in keys {
      if best.count == count, let last = best.last, !before(key, last) { continue }
      var low = 0
      var high = best.count
      while low < high {
        let middle = (low + high) / 2
        if before(best[middle], key) { low = middle + 1 } else { high = middle }
      }
      best.insert(key, at: low)
      if best.count > count { best.removeLast() }
    }
    return best
  }
}
