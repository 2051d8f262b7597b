import AuthCore

/// `30s`, `500ms`, `2m`, `1.5` (seconds) → seconds.
package enum Durations {
  /// The longest duration a flag or `sleep` takes (24h): anything longer is a typo, and huge
  /// values would overflow the clocks that wait for them.
  package static let maximumSeconds: Double = Target.maximumTimeout

  /// Seconds, or nil when the text is not a duration or is out of 0…24h.
  package static func seconds(_ text: String) -> Double? {
    let trimmed = text.trimmingWhitespace.lowercased()
    let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
    var number = Substring(trimmed)
    var factor = 1.0
    if let unit = units.first(where: { trimmed.hasSuffix($0.0) }) {
      number = number.dropLast(unit.0.count)
      factor = unit.1
    }
    // Plain decimals only: `Double` also reads `inf`, `nan` and hex floats.
    guard number.contains(where: \.isNumber), number.allSatisfy({ "0123456789.e+-".contains($0) }),
      let value = Double(number), value.isFinite, value >= 0
    else { return nil }
    let seconds = value * factor
    return seconds <= maximumSeconds ? seconds : nil
  }

  /// A long span for `user disable --until` and `audit --since`: seconds, minutes, hours, `d`
  /// (days), `w` (weeks) and `y` (years of 365 days), up to 100 years, whole seconds of at least 1.
  package static func longSeconds(_ text: String) -> Int? {
    let trimmed = text.trimmingWhitespace.lowercased()
    let units: [(String, Double)] = [
      ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400), ("w", 604_800), ("y", 31_536_000),
    ]
    guard let unit = units.first(where: { trimmed.hasSuffix($0.0) }) else { return nil }
    let number = trimmed.dropLast()
    guard number.contains(where: \.isNumber), number.allSatisfy({ "0123456789.".contains($0) }),
      let value = Double(number), value.isFinite
    else { return nil }
    let seconds = value * unit.1
    guard seconds >= 1, seconds <= 3_155_760_000 else { return nil }
    return Int(seconds)
  }

  /// "59m 12s", "3s", "2h 5m" for humans.
  package static func describe(_ seconds: Int) -> String {
    if seconds < 0 { return "expired \(describe(seconds == Int.min ? Int.max : -seconds)) ago" }
    if seconds < 60 { return "\(seconds)s" }
    if seconds < 3600 { return "\(seconds / 60)m \(seconds % 60)s" }
    return "\(seconds / 3600)h \(seconds % 3600 / 60)m"
  }
}
