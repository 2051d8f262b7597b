extension GoTrueRules {
  /// 8-4-4-4-12 hex digits (lower case expected; callers lower-case first).
  static func isUUID(_ text: String) -> Bool {
    var count = 0
    for byte in text.utf8 {
      let dash = count == 8 || count == 13 || count == 18 || count == 23
      let hex = (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
      guard dash ? byte == UInt8(ascii: "-") : hex else { return false }
      count += 1
    }
    return count == 36
  }

  /// `$2a$10$` + 53 characters of bcrypt's base64.
  static func isBcryptHash(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count == 60, text.hasPrefix("$2a$") || text.hasPrefix("$2b$") || text.hasPrefix("$2y$"),
      bytes[4...5].allSatisfy({ (0x30...0x39).contains($0) }), bytes[6] == UInt8(ascii: "$")
    else { return false }
    return bytes[7...].allSatisfy { byte in
      (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2E
        || byte == 0x2F
    }
  }

  /// Go's `time.ParseDuration` (`"24h"`, `"1h30m"`, `"1.5s"`, `"-2m"`), in microseconds.
  static func parseGoDuration(_ text: String) -> Micros? {
    var rest = Substring(text)
    var sign = 1.0
    if let first = rest.first, first == "-" || first == "+" {
      sign = first == "-" ? -1 : 1
      rest = rest.dropFirst()
    }
    if rest == "0" { return 0 }
    guard !rest.isEmpty else { return nil }
    let units: [(String, Double)] = [
      ("ns", 0.001), ("us", 1), ("µs", 1), ("μs", 1), ("ms", 1_000), ("s", 1_000_000), ("m", 60_000_000),
      ("h", 3_600_000_000),
    ]
    var total = 0.0
    while !rest.isEmpty {
      let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
      guard !number.isEmpty, number != ".", let value = Double(number.hasPrefix(".") ? "0" + number : String(number))
      else { return nil }
      rest = rest.dropFirst(number.count)
      let unitText = rest.prefix { !($0.isASCII && ($0.isNumber || $0 == ".")) }
      guard let unit = units.first(where: { $0.0 == unitText }) else { return nil }
      rest = rest.dropFirst(unitText.count)
      total += value * unit.1
    }
    // Go refuses durations past ±2^63 ns (about 292 years): "time: invalid duration". In
    // microseconds, as a Double (Int64.max / 1000 rounds up to 9_223_372_036_854_776).
    guard total.isFinite, total < Double(Int64.max / 1_000) else { return nil }
    return Micros((sign * total).rounded())
  }
}
