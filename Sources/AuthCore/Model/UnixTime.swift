import Essentials

/// Plausible Unix times. Every time a backend sends (an expiry, a timestamp) or a session file
/// holds is checked against this range before any arithmetic, so a hostile or corrupt value is
/// rejected as data instead of overflowing.
package enum UnixTime {
  /// 9999-12-31T23:59:59Z, the last second ISO 8601 writes with four year digits.
  package static let latest = 253_402_300_799

  /// 1970-01-01 through 9999-12-31.
  package static func isPlausible(_ seconds: Int) -> Bool { seconds >= 0 && seconds <= latest }

  /// `now + seconds` for an `expires_in`, or nil when the lifetime is negative or the sum is not
  /// a plausible time.
  package static func adding(_ seconds: Int, to now: Int) -> Int? {
    guard seconds >= 0, seconds <= latest, isPlausible(now) else { return nil }
    let sum = now + seconds
    return isPlausible(sum) ? sum : nil
  }

  /// `a - b` without trapping (saturates at the ends of `Int`).
  package static func difference(_ a: Int, _ b: Int) -> Int {
    let (value, overflow) = a.subtractingReportingOverflow(b)
    guard overflow else { return value }
    return b < 0 ? Int.max : Int.min
  }
}

extension UnixTime {
  /// Seconds of an ISO 8601 time as backends write them (`2024-05-01T10:00:00Z`,
  /// `…:00.123456Z`, `…:00.123+00:00`); fractional seconds are dropped. nil when unreadable or implausible.
  ///
  /// The project's one RFC 3339 reader: `T`, `t` or a space between date and time, an optional
  /// fraction, and a zone (`Z`, `+02:00`, `+0200`); without a zone it is nil, as
  /// `ISO8601DateFormatter` says. Read as bytes: no formatter (not thread-safe, and a third of a
  /// `whoami` in profiles when made per call).
  package static func parseISO(_ text: String) -> Int? {
    let b = Array(text.utf8)
    func number(_ start: Int, _ count: Int) -> Int? {
      guard start + count <= b.count else { return nil }
      var value = 0
      for byte in b[start..<(start + count)] {
        guard byte >= 48, byte <= 57 else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      return value
    }
    let dash = UInt8(ascii: "-")
    let colon = UInt8(ascii: ":")
    guard b.count >= 20, b[4] == dash, b[7] == dash,
      [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(b[10]),
      b[13] == colon, b[16] == colon, let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2), (1...12).contains(month),
      (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    var index = 19
    if index < b.count, b[index] == UInt8(ascii: ".") {
      index += 1
      while index < b.count, b[index] >= 48, b[index] <= 57 { index += 1 }
    }
    guard index < b.count else { return nil }
    var offset = 0
    if b[index] == UInt8(ascii: "Z") || b[index] == UInt8(ascii: "z") {
      index += 1
    } else if b[index] == UInt8(ascii: "+") || b[index] == dash {
      let sign = b[index] == dash ? -1 : 1
      guard let hours = number(index + 1, 2), hours < 24 else { return nil }
      var next = index + 3
      if next < b.count, b[next] == colon { next += 1 }
      guard let minutes = number(next, 2), minutes < 60 else { return nil }
      offset = sign * (hours * 3600 + minutes * 60)
      index = next + 2
    } else {
      return nil
    }
    guard index == b.count else { return nil }
    let seconds = CivilTime.daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset
    return isPlausible(seconds) ? seconds : nil
  }
}
