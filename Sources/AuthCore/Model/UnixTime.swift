/// Plausible Unix times. Every time a backend sends (an expiry, a timestamp) or a session file
/// holds is checked against this range before any arithmetic, so a hostile or corrupt value is
/// rejected as data instead of overflowing.
public enum UnixTime {
  /// 9999-12-31T23:59:59Z, the last second ISO 8601 writes with four year digits.
  public static let latest = 253_402_300_799

  /// 1970-01-01 through 9999-12-31.
  public static func isPlausible(_ seconds: Int) -> Bool { seconds >= 0 && seconds <= latest }

  /// `now + seconds` for an `expires_in`, or nil when the lifetime is negative or the sum is not
  /// a plausible time.
  public static func adding(_ seconds: Int, to now: Int) -> Int? {
    guard seconds >= 0, seconds <= latest, isPlausible(now) else { return nil }
    let sum = now + seconds
    return isPlausible(sum) ? sum : nil
  }

  /// `a - b` without trapping (saturates at the ends of `Int`).
  public static func difference(_ a: Int, _ b: Int) -> Int {
    let (value, overflow) = a.subtractingReportingOverflow(b)
    guard overflow else { return value }
    return b < 0 ? Int.max : Int.min
  }
}
