import Essentials
import JSONKit

/// The console's one way of showing a time: UTC with its zone (`2026-12-07 06:43:28 UTC`) in a
/// `<time>` element whose `datetime` and `title` carry the ISO time (`console.js` puts the
/// browser's local time in the title, shown on hover).
enum ConsoleTime {
  /// What a time field holds: ISO text (Supabase), milliseconds or seconds since 1970 as a number
  /// or a string of digits (Firebase's `lastLoginAt`, `validSince`).
  enum Unit: Sendable { case iso, milliseconds, seconds }

  /// `2026-12-07 06:43:28 UTC`.
  static func text(milliseconds: Int64) -> String {
    let iso = CivilTime.iso8601(milliseconds: Int(milliseconds))
    return String(iso.prefix(19).map { $0 == "T" ? " " : $0 }) + " UTC"
  }

  /// `2026-12-07T06:43:28.000Z`.
  static func iso(milliseconds: Int64) -> String { CivilTime.iso8601(milliseconds: Int(milliseconds)) }

  /// The `<time>` element; "never" for nil.
  static func markup(milliseconds: Int64?) -> String {
    guard let milliseconds else { return "never" }
    let iso = ConsoleHTML.attribute(iso(milliseconds: milliseconds))
    return "<time datetime=\"\(iso)\" title=\"\(iso)\">\(text(milliseconds: milliseconds))</time>"
  }

  /// A time field of an admin API answer as a `<time>` element; "never" for null or missing, the
  /// value itself (escaped) when it is no time.
  static func markup(_ value: JSON?, unit: Unit) -> String {
    guard let value, value != .null else { return "never" }
    if let milliseconds = milliseconds(value, unit: unit) { return markup(milliseconds: milliseconds) }
    return ConsoleHTML.text(ConsoleAccountPage.plain(value))
  }

  static func milliseconds(_ value: JSON, unit: Unit) -> Int64? {
    let text = ConsoleAccountPage.plain(value)
    switch unit {
    case .iso: return milliseconds(iso: text)
    case .milliseconds: return Int64(text)
    case .seconds: return Int64(text).map { $0 * 1000 }
    }
  }

  /// `2026-12-07T06:43:28.123456Z` or `…+02:00` as milliseconds since 1970; nil for other text.
  static func milliseconds(iso text: String) -> Int64? {
    let b = Array(text.utf8)
    func number(_ start: Int, _ count: Int) -> Int? {
      guard start + count <= b.count else { return nil }
      var value = 0
      for byte in b[start..<start + count] {
        guard byte >= 48, byte <= 57 else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      return value
    }
    guard b.count >= 20, b[4] == 45, b[7] == 45, b[10] == 84 || b[10] == 32, b[13] == 58, b[16] == 58,
      let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
      let minute = number(14, 2), let second = number(17, 2), (1...12).contains(month), (1...31).contains(day)
    else { return nil }
    var index = 19
    var fraction = 0
    if b[index] == 46 {
      index += 1
      var digits = 0
      while index < b.count, b[index] >= 48, b[index] <= 57 {
        if digits < 3 { fraction = fraction * 10 + Int(b[index] - 48) }
        digits += 1
        index += 1
      }
      for _ in min(digits, 3)..<3 { fraction *= 10 }
    }
    guard index < b.count else { return nil }
    var offset = 0
    if b[index] != 90 {
      guard b[index] == 43 || b[index] == 45, let hours = number(index + 1, 2) else { return nil }
      let minutes = number(index + 4, 2) ?? number(index + 3, 2) ?? 0
      offset = (hours * 60 + minutes) * 60 * (b[index] == 43 ? 1 : -1)
    }
    let days = CivilTime.daysFromCivil(year, month, day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
    return Int64(seconds) * 1000 + Int64(fraction)
  }
}
