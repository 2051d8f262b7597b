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
  /// Live, soft-deleted (Supabase) or anonymous: the list names the last two so.
  var state: ConsoleAccountPage.AccountState = .live
}

/// What the accounts list shows: a search, an order, a page.
struct ConsoleListQuery: Sendable, Equatable {
  enum Sort: String, Sendable { case created, lastSignIn = "last_sign_in" }
  static let pageSize = 50

  var search = "" {
    didSet {
      needle = Array(search.lowercased().utf8)
      phoneNeedle = Self.phoneDigits(search)
    }
  }
  var filters = ConsoleFilters()
  var sort = Sort.created
  var newestFirst = true
  /// 1-based.
  var page = 1
  /// `search` lower-cased, as UTF-8.
  private(set) var needle: [UInt8] = []
  /// The digits of a search that reads as a phone number (`+1 555 0100`, `(555) 0100`), else empty:
  /// it matches a phone stored with or without `+`.
  private(set) var phoneNeedle: [UInt8] = []

  /// The digits of `text` when it holds only digits, spaces, `+`, `-`, `.` and parentheses.
  static func phoneDigits(_ text: String) -> [UInt8] {
    var digits: [UInt8] = []
    for byte in text.utf8 {
      switch byte {
      case 0x30...0x39: digits.append(byte)
      case 0x20, 0x2B, 0x2D, 0x2E, 0x28, 0x29: continue
      default: return []
      }
    }
    return digits
  }

  /// True when the account matches the search: its e-mail, id, phone (the search's digits, when
  /// it reads as a number) or name contains it, in any case (compared byte by byte, ASCII letters folded: one pass over 100,000 accounts takes a few
  /// milliseconds, where `String.contains` took a second).
  func matches(id: String, email: String, name: String?, phone: String?) -> Bool {
    if needle.isEmpty { return true }
    return needle.withUnsafeBufferPointer { needle in
      if Self.contains(email, needle) || Self.contains(id, needle) { return true }
      if let phone, Self.contains(phone, needle) { return true }
      if let phone, !phoneNeedle.isEmpty,
        phoneNeedle.withUnsafeBufferPointer({ Self.contains(phone, $0) })
      {
        return true
      }
      guard let name else { return false }
      if Self.contains(name, needle) { return true }
      // Letters outside ASCII (É, Ä) fold only through the name's own lower case.
      return name.utf8.contains { $0 >= 0x80 } && Self.contains(name.lowercased(), needle)
    }
  }

  /// `text` contains `needle` (lower-case UTF-8), ASCII letters of `text` folded to lower case.
  static func contains(_ text: String, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
    if let found = text.utf8.withContiguousStorageIfAvailable({ search($0, needle) }) { return found }
    return Array(text.utf8).withUnsafeBufferPointer { search($0, needle) }
  }

  @inline(__always)
  private static func search(_ text: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = needle.first else { return true }
    guard needle.count <= text.count else { return false }
    var start = 0
    let last = text.count - needle.count
    while start <= last {
      if fold(text[start]) == first {
        var offset = 1
        while offset < needle.count && fold(text[start + offset]) == needle[offset] { offset += 1 }
        if offset == needle.count { return true }
      }
      start += 1
    }
    return false
  }

  @inline(__always)
  private static func fold(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
}

/// Server-side paging: each matching account contributes only a sort key (time, id); the page's
/// fifty are picked from those without sorting the rest, so a page of the first pages costs one
/// pass over the accounts.
enum ConsolePaging {
  /// A matching account: its sort time and where the caller keeps it (`id(slot)` names it; ids
  /// are read only to order accounts of the same time).
  struct Key: Sendable, Equatable {
    var time: Int64
    var slot: Int
  }

  struct Window: Sendable, Equatable {
    var ids: [String]
    var total: Int
    var page: Int
    var pageCount: Int
  }

  /// The ids of the requested page (clamped to the last one) among `keys`, in the query's order
  /// (time, then id).
  static func window(_ keys: [Key], query: ConsoleListQuery, id: @escaping (Int) -> String) -> Window {
    let size = ConsoleListQuery.pageSize
    let pageCount = max(1, (keys.count + size - 1) / size)
    let page = min(max(1, query.page), pageCount)
    let start = (page - 1) * size
    let end = min(start + size, keys.count)
    let ascending: (Key, Key) -> Bool = { a, b in a.time != b.time ? a.time < b.time : id(a.slot) < id(b.slot) }
    let before: (Key, Key) -> Bool = query.newestFirst ? { ascending($1, $0) } : ascending
    let chosen: [Key]
    if end * 4 < keys.count {
      chosen = Array(smallest(end, of: keys, by: before)[start..<end])
    } else if (keys.count - start) * 4 < keys.count {
      // A page near the end: the last ones in the other order, turned round.
      chosen = Array(smallest(keys.count - start, of: keys, by: { before($1, $0) }).reversed().prefix(end - start))
    } else {
      chosen = Array(keys.sorted(by: before)[start..<end])
    }
    return Window(ids: chosen.map { id($0.slot) }, total: keys.count, page: page, pageCount: pageCount)
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
