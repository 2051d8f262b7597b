/// Why a text is not JSON, with the byte offset where the parser gave up.
package struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
  package let offset: Int
  package let reason: String
  package var description: String { "\(reason) at byte \(offset)" }
}

extension JSON {
  /// Parses RFC 8259 JSON. Hostile input (deep nesting, bad escapes, truncation) ends in a
  /// `JSONParseError`, never a crash.
  package static func parse(_ text: String) throws -> JSON {
    try parse(bytes: Array(text.utf8))
  }

  package static func parse<Bytes: Collection>(bytes: Bytes) throws -> JSON where Bytes.Element == UInt8 {
    var parser = JSONByteParser(bytes: Array(bytes))
    return try parser.parseDocument()
  }
}

private struct JSONByteParser {
  let bytes: [UInt8]
  var index = 0
  var depth = 0
  static let maxDepth = 256

  init(bytes: [UInt8]) { self.bytes = bytes }

  mutating func parseDocument() throws -> JSON {
    skipWhitespace()
    let value = try parseValue()
    skipWhitespace()
    guard index == bytes.count else { throw fail("unexpected text after the JSON value") }
    return value
  }

  func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: index, reason: reason) }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  mutating func parseValue() throws -> JSON {
    guard index < bytes.count else { throw fail("unexpected end of input") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectWord("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectWord("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectWord("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw fail("unexpected character")
    }
  }

  mutating func expectWord(_ word: String) throws {
    for byte in word.utf8 {
      guard index < bytes.count, bytes[index] == byte else { throw fail("invalid literal") }
      index += 1
    }
  }

  mutating func enter() throws {
    depth += 1
    if depth > Self.maxDepth { throw fail("nesting deeper than \(Self.maxDepth)") }
  }

  mutating func parseObject() throws -> JSON {
    try enter()
    defer { depth -= 1 }
    index += 1
    var object = JSONObject()
    object.reserveCapacity(16)
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(object)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw fail("expected a string key")
      }
      let key = try parseString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
      index += 1
      skipWhitespace()
      object[key] = try parseValue()
      skipWhitespace()
      guard index < bytes.count else { throw fail("unexpected end of input") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(object)
      }
      throw fail("expected ',' or '}'")
    }
  }

  mutating func parseArray() throws -> JSON {
    try enter()
    defer { depth -= 1 }
    index += 1
    var items: [JSON] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(items)
    }
    while true {
      skipWhitespace()
      items.append(try parseValue())
      skipWhitespace()
      guard index < bytes.count else { throw fail("unexpected end of input") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      }
      throw fail("expected ',' or ']'")
    }
  }

  mutating func parseString() throws -> String {
    index += 1  // opening quote
    let start = index
    // Most strings have no escape: they are the bytes between the quotes, decoded once. Most
    // are ASCII too, which is valid UTF-8 as it stands: only the others go through the validating
    // decoder (a generic one, ten times slower).
    let scan = bytes.withUnsafeBufferPointer { buffer -> (end: Int, closed: Bool, text: String?) in
      var end = start
      var allBits: UInt8 = 0
      // Eight bytes at a time while none of them ends the run (a quote, a backslash, a control
      // character) and all are ASCII; the bytes loop below takes over at the word that has one.
      if let base = buffer.baseAddress {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasByte(_ word: UInt64, _ byte: UInt8) -> Bool {
          let x = word ^ (UInt64(byte) &* ones)
          return (x &- ones) & ~x & highs != 0
        }
        while end + 8 <= buffer.count {
          let word = UnsafeRawPointer(base + end).loadUnaligned(as: UInt64.self)
          let belowSpace = (word &- 0x20 &* ones) & ~word & highs
          if word & highs != 0 || belowSpace != 0 || hasByte(word, UInt8(ascii: "\""))
            || hasByte(word, UInt8(ascii: "\\"))
          {
            break
          }
          end += 8
        }
      }
      while end < buffer.count {
        let byte = buffer[end]
        if byte == UInt8(ascii: "\"") {
          let text =
            allBits < 0x80 ? String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self) : nil
          return (end, true, text)
        }
        if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
        allBits |= byte
        end += 1
      }
      return (end, false, nil)
    }
    index = scan.end
    if scan.closed {
      index += 1
      guard let text = scan.text ?? String(validating: bytes[start..<index - 1], as: UTF8.self) else {
        throw fail("string is not valid UTF-8")
      }
      return text
    }
    // An escape (or the end, or a control character): the bytes so far, then one at a time.
    var buffer = Array(bytes[start..<index])
    while true {
      guard index < bytes.count else { throw fail("unterminated string") }
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        guard let text = String(validating: buffer, as: UTF8.self) else {
          throw fail("string is not valid UTF-8")
        }
        return text
      case UInt8(ascii: "\\"):
        index += 1
        guard index < bytes.count else { throw fail("unterminated escape") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): buffer.append(0x22)
        case UInt8(ascii: "\\"): buffer.append(0x5C)
        case UInt8(ascii: "/"): buffer.append(0x2F)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"): buffer.append(contentsOf: try parseUnicodeEscape())
        default: throw fail("invalid escape")
        }
      case 0x00..<0x20:
        throw fail("control character in string")
      default:
        buffer.append(byte)
        index += 1
      }
    }
  }

  mutating func parseHex4() throws -> UInt32 {
    guard index + 4 <= bytes.count else { throw fail("truncated \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw fail("invalid \\u escape")
      }
      value = value * 16 + digit
      index += 1
    }
    return value
  }

  mutating func parseUnicodeEscape() throws -> [UInt8] {
    var scalarValue = try parseHex4()
    if (0xD800...0xDBFF).contains(scalarValue) {
      guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
        bytes[index + 1] == UInt8(ascii: "u")
      else { throw fail("lone surrogate in \\u escape") }
      index += 2
      let low = try parseHex4()
      guard (0xDC00...0xDFFF).contains(low) else { throw fail("invalid surrogate pair") }
      scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
    } else if (0xDC00...0xDFFF).contains(scalarValue) {
      throw fail("lone surrogate in \\u escape")
    }
    guard let scalar = Unicode.Scalar(scalarValue) else { throw fail("invalid code point") }
    return Array(String(Character(scalar)).utf8)
  }

  mutating func parseNumber() throws -> JSON {
    let start = index
    var isInteger = true
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      isInteger = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    if isInteger, let value = Int(text) { return .int(value) }
    guard let value = Double(text) else { throw fail("invalid number") }
    return .double(value)
  }

  func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
