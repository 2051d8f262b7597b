/// Base64url without padding (JWT segments). Decoding also accepts the standard alphabet and
/// trailing `=` padding.
package enum Base64URL {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
  private static let values: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
    table[Int(UInt8(ascii: "+"))] = 62
    table[Int(UInt8(ascii: "/"))] = 63
    return table
  }()

  package static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
    let input = Array(bytes)
    var out: [UInt8] = []
    out.reserveCapacity((input.count + 2) / 3 * 4)
    var index = 0
    while index + 3 <= input.count {
      let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
      out += [
        alphabet[Int(chunk >> 18 & 63)], alphabet[Int(chunk >> 12 & 63)], alphabet[Int(chunk >> 6 & 63)],
        alphabet[Int(chunk & 63)],
      ]
      index += 3
    }
    switch input.count - index {
    case 1:
      let chunk = UInt32(input[index]) << 16
      out += [alphabet[Int(chunk >> 18 & 63)], alphabet[Int(chunk >> 12 & 63)]]
    case 2:
      let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
      out += [alphabet[Int(chunk >> 18 & 63)], alphabet[Int(chunk >> 12 & 63)], alphabet[Int(chunk >> 6 & 63)]]
    default:
      break
    }
    return String(decoding: out, as: UTF8.self)
  }

  package static func decode(_ text: String) -> [UInt8]? {
    var text = text
    return text.withUTF8 { decode($0) }
  }

  package static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    var end = bytes.count
    while end > 0 && bytes[end - 1] == UInt8(ascii: "=") { end -= 1 }
    guard end % 4 != 1 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(end * 3 / 4)
    var buffer: UInt32 = 0
    var bits = 0
    for index in 0..<end {
      let value = values[Int(bytes[index])]
      guard value != 0xFF else { return nil }
      buffer = buffer << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
      }
    }
    return out
  }
}
