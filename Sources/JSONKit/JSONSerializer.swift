extension JSON {
  /// Compact JSON text (`{"a":1}`), keys in insertion order.
  package var compactText: String { String(decoding: bytes, as: UTF8.self) }

  /// Pretty JSON text with two-space indentation, as Node and `jq` print it.
  package var prettyText: String {
    var out: [UInt8] = []
    write(to: &out, indent: 2, level: 0)
    return String(decoding: out, as: UTF8.self)
  }

  /// Compact JSON as UTF-8: written as bytes (a 1,000-account request body is built in one pass).
  package var bytes: [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(64)
    write(to: &out, indent: nil, level: 0)
    return out
  }

  private func write(to out: inout [UInt8], indent: Int?, level: Int) {
    switch self {
    case .null: out += "null".utf8
    case .bool(let value): out += (value ? "true" : "false").utf8
    case .int(let value): out += String(value).utf8
    case .double(let value): out += JSON.format(value).utf8
    case .string(let value): JSON.writeString(value, to: &out)
    case .array(let items):
      if items.isEmpty {
        out += "[]".utf8
        return
      }
      out.append(UInt8(ascii: "["))
      for (position, item) in items.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        JSON.newline(&out, indent: indent, level: level + 1)
        item.write(to: &out, indent: indent, level: level + 1)
      }
      JSON.newline(&out, indent: indent, level: level)
      out.append(UInt8(ascii: "]"))
    case .object(let object):
      if object.isEmpty {
        out += "{}".utf8
        return
      }
      out.append(UInt8(ascii: "{"))
      for (position, pair) in object.pairs.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        JSON.newline(&out, indent: indent, level: level + 1)
        JSON.writeString(pair.key, to: &out)
        out.append(UInt8(ascii: ":"))
        if indent != nil { out.append(UInt8(ascii: " ")) }
        pair.value.write(to: &out, indent: indent, level: level + 1)
      }
      JSON.newline(&out, indent: indent, level: level)
      out.append(UInt8(ascii: "}"))
    }
  }

  private static func newline(_ out: inout [UInt8], indent: Int?, level: Int) {
    guard let indent else { return }
    out.append(UInt8(ascii: "\n"))
    out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
  }

  private static func format(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
    return String(value)
  }

  /// Does this UTF-8 byte need an escape? Quotes, backslashes, control characters and DEL; every
  /// byte of a multi-byte sequence is ≥ 0x80, so the rest of Unicode is copied as it is.
  private static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
  }

  /// Whether some byte of `word` may need an escape (`needsEscape`): never false when one does
  /// (the bit tricks of "Bit Twiddling Hacks": a byte below 0x20, or equal to `"`, `\` or DEL).
  static func wordNeedsEscape(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
    let hasControl = (word &- ones &* 0x20) & ~word & highs != 0
    return hasControl || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
      || hasZeroByte(word ^ (ones &* 0x7F))
  }

  /// `value` as a JSON string (quoted and escaped), appended to `out`: for writers that build a
  /// line of known shape without building its `JSON` first.
  package static func writeString(_ value: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    var value = value
    value.withUTF8 { utf8 in
      // Runs of bytes that need no escape are copied whole (most strings are one run).
      var start = 0
      var offset = 0
      while offset < utf8.count {
        // Eight bytes at a time while none of them needs an escape.
        while offset + 8 <= utf8.count,
          !wordNeedsEscape(UnsafeRawPointer(utf8.baseAddress! + offset).loadUnaligned(as: UInt64.self))
        {
          offset += 8
        }
        guard offset < utf8.count else { break }
        let byte = utf8[offset]
        guard needsEscape(byte) else {
          offset += 1
          continue
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<offset]))
        offset += 1
        start = offset
        switch byte {
        case UInt8(ascii: "\""): out += #"\""#.utf8
        case UInt8(ascii: "\\"): out += #"\\"#.utf8
        case UInt8(ascii: "\n"): out += #"\n"#.utf8
        case UInt8(ascii: "\r"): out += #"\r"#.utf8
        case UInt8(ascii: "\t"): out += #"\t"#.utf8
        case 0x08: out += #"\b"#.utf8
        case 0x0C: out += #"\f"#.utf8
        default:
          let hex = String(byte, radix: 16)
          out += #"\u"#.utf8
          out += String(repeating: "0", count: 4 - hex.count).utf8
          out += hex.utf8
        }
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
    }
    out.append(UInt8(ascii: "\""))
  }
}
