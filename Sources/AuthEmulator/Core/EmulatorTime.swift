import Essentials

/// Microseconds since the Unix epoch: Postgres' precision, so stored times print like GoTrue's.
typealias Micros = Int64

extension Date {
  var micros: Micros { Micros((timeIntervalSince1970 * 1_000_000).rounded()) }
}

enum GoTime {
  /// RFC 3339 in UTC the way Go prints `time.Time`: fractional seconds with trailing zeros
  /// dropped (none at all on a whole second), e.g. `2026-02-09T16:10:50.52732Z`.
  static func format(_ value: Micros) -> String {
    let seconds = value >= 0 ? value / 1_000_000 : (value - 999_999) / 1_000_000
    var fraction = Int(value - seconds * 1_000_000)
    let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
    let secondOfDay = Int(seconds - days * 86400)
    let (year, month, day) = civil(fromDays: days)
    var out = ""
    out.reserveCapacity(32)
    pad(&out, Int(year), 4)
    out += "-"
    pad(&out, month, 2)
    out += "-"
    pad(&out, day, 2)
    out += "T"
    pad(&out, secondOfDay / 3600, 2)
    out += ":"
    pad(&out, secondOfDay / 60 % 60, 2)
    out += ":"
    pad(&out, secondOfDay % 60, 2)
    if fraction > 0 {
      var digits = 6
      while fraction % 10 == 0 {
        fraction /= 10
        digits -= 1
      }
      out += "."
      pad(&out, fraction, digits)
    }
    out += "Z"
    return out
  }

  /// Days since 1970-01-01 → (year, month, day) in the proleptic Gregorian calendar.
  static func civil(fromDays days: Int64) -> (Int64, Int, Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
    let month = Int(mp < 10 ? mp + 3 : mp - 9)
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private static func pad(_ out: inout String, _ value: Int, _ width: Int) {
    let text = String(value)
    if text.count < width { out += String(repeating: "0", count: width - text.count) }
    out += text
  }
}

/// Random values from the system CSPRNG.
enum EmulatorRandom {
  private static let alphanumerics = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)

  /// GoTrue's v1 refresh token: 12 characters of `[a-z0-9]`.
  static func refreshToken() -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<12).map { _ in alphanumerics[Int.random(in: 0..<alphanumerics.count, using: &generator)] }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A zero-padded decimal code of `digits` digits.
  static func otp(digits: Int = 6) -> String {
    var generator = SystemRandomNumberGenerator()
    return String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
  }

  /// A lowercase UUID v4.
  static func uuid() -> String { UUID().uuidString.lowercased() }
}
