import Essentials

/// Microseconds since the Unix epoch: Postgres' precision, so stored times print like GoTrue's.
typealias Micros = Int64

extension Date {
  /// Saturated at the ends of `Micros` (a date read from a request can be any Double).
  var micros: Micros {
    let value = (timeIntervalSince1970 * 1_000_000).rounded()
    return Micros(exactly: value) ?? (value < 0 ? .min : .max)
  }
}

enum GoTime {
  /// RFC 3339 in UTC the way Go prints `time.Time`: fractional seconds with trailing zeros
  /// dropped (none at all on a whole second), e.g. `2026-02-09T16:10:50.52732Z`.
  static func format(_ value: Micros) -> String {
    let (quotient, remainder) = Int(value).quotientAndRemainder(dividingBy: 1_000_000)
    let (seconds, micros) = remainder < 0 ? (quotient - 1, remainder + 1_000_000) : (quotient, remainder)
    let whole = CivilTime.iso8601(seconds: seconds)
    guard micros > 0 else { return whole }
    var fraction = Substring(NumberText.zeroPadded(micros, width: 6))
    while fraction.hasSuffix("0") { fraction = fraction.dropLast() }
    return whole.dropLast() + "." + fraction + "Z"
  }
}

/// Random values from the kernel's CSPRNG (`PooledRandom`).
enum EmulatorRandom {
  private static let alphanumerics = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)

  /// GoTrue's v1 refresh token: 12 characters of `[a-z0-9]`.
  static func refreshToken() -> String {
    var generator = PooledRandom()
    let bytes = (0..<12).map { _ in alphanumerics[Int.random(in: 0..<alphanumerics.count, using: &generator)] }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A zero-padded decimal code of `digits` digits.
  static func otp(digits: Int = 6) -> String {
    var generator = PooledRandom()
    return String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
  }

  /// A lowercase UUID v4 from the kernel's CSPRNG (`PooledRandom`; Foundation's `UUID()` opens
  /// `/dev/urandom` for each one on Linux, three of them per account).
  static func uuid() -> String {
    var bytes = PooledRandom.bytes(16)
    bytes[6] = bytes[6] & 0x0F | 0x40
    bytes[8] = bytes[8] & 0x3F | 0x80
    let hex = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(36)
    for (index, byte) in bytes.enumerated() {
      if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
      text.append(hex[Int(byte >> 4)])
      text.append(hex[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
