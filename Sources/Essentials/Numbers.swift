/// Numbers as text without `String(format:)` (a Foundation API).
package enum NumberText {
  /// `value` with `places` digits after the point, rounded half away from zero (`%.3f`).
  package static func fixed(_ value: Double, places: Int) -> String {
    guard value.isFinite else { return String(value) }
    let places = max(0, min(places, 9))
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e15 else { return String(value) }
    let units = Int(scaled)
    let whole = String(units / Int(scale))
    let sign = value < 0 && units != 0 ? "-" : ""
    guard places > 0 else { return sign + whole }
    return sign + whole + "." + zeroPadded(units % Int(scale), width: places)
  }

  /// `value` in decimal with leading zeros to `width` digits (`%02d`).
  package static func zeroPadded(_ value: Int, width: Int) -> String {
    let digits = String(value.magnitude)
    let padding = String(repeating: "0", count: max(0, width - digits.count))
    return (value < 0 ? "-" : "") + padding + digits
  }

  /// Two lower-case hex digits a byte (`%02x`).
  package static func hex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    for byte in bytes { out += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
    return String(decoding: out, as: UTF8.self)
  }
}
