/// UTC dates of the proleptic Gregorian calendar and their ISO 8601 text, in integer arithmetic:
/// no formatter (Foundation's are not thread-safe, and costly per call), no trap on any `Int`.
package enum CivilTime {
  /// `2024-05-01T10:00:00Z` of a Unix time in whole seconds (times before 1970 count back
  /// correctly; a year outside 0000–9999 is written with as many digits as it has).
  package static func iso8601(seconds: Int) -> String {
    let (days, rest) = floorDivision(seconds, 86_400)
    let (year, month, day) = civilFromDays(days)
    guard (0...9999).contains(year) else {
      let yearText = year < 0 ? "-" + NumberText.zeroPadded(-year, width: 4) : NumberText.zeroPadded(year, width: 4)
      return "\(yearText)-\(two(month))-\(two(day))T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))Z"
    }
    // Digits written straight into the string (a user has four timestamps, read on every step).
    return String(unsafeUninitializedCapacity: 20) { text in
      func digits(_ value: Int, _ width: Int, at offset: Int) {
        var rest = value
        for position in (offset..<offset + width).reversed() {
          text[position] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
        }
      }
      digits(year, 4, at: 0)
      digits(month, 2, at: 5)
      digits(day, 2, at: 8)
      digits(rest / 3600, 2, at: 11)
      digits(rest % 3600 / 60, 2, at: 14)
      digits(rest % 60, 2, at: 17)
      for (offset, mark) in [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "Z")] as [(Int, Unicode.Scalar)]
      {
        text[offset] = UInt8(ascii: mark)
      }
      return 20
    }
  }

  /// `2026-01-02T03:04:05.678Z` of a Unix time in milliseconds (JavaScript's `toISOString()`).
  package static func iso8601(milliseconds: Int) -> String {
    let (seconds, fraction) = floorDivision(milliseconds, 1000)
    return iso8601(seconds: seconds).dropLast() + "." + NumberText.zeroPadded(fraction, width: 3) + "Z"
  }

  /// Days since 1970-01-01 of a date (Howard Hinnant's algorithm).
  package static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The date (year, month, day) of a day count since 1970-01-01.
  package static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Quotient rounded down and a remainder in 0..<divisor, for any `value`.
  private static func floorDivision(_ value: Int, _ divisor: Int) -> (quotient: Int, remainder: Int) {
    let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
    return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
  }

  private static func two(_ value: Int) -> String { NumberText.zeroPadded(value, width: 2) }
}
