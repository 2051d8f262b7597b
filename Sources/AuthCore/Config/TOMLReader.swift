import JSONKit

/// Reads the TOML that `config.toml` needs — tables (`[a.b]`), `key = value` with strings, integers,
/// floats, booleans and one-line arrays, and comments — into a JSON object. Anything else is an
/// error with its line number, never a guess.
public enum TOMLReader {
  public struct Failure: Error, Equatable, Sendable {
    public let line: Int
    public let message: String
  }

  public static func parse(_ text: String) throws -> JSON {
    var root = JSONObject()
    var tablePath: [String] = []
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let lineNumber = index + 1
      var scanner = Scanner(Array(String(rawLine).unicodeScalars), line: lineNumber)
      scanner.skipSpaces()
      if scanner.atEndOrComment { continue }
      if scanner.peek == "[" {
        scanner.advance()
        tablePath = try scanner.keyPath(until: "]")
        scanner.skipSpaces()
        guard scanner.atEndOrComment else { throw Failure(line: lineNumber, message: "unexpected text after table header") }
        try ensureTable(&root, path: tablePath, line: lineNumber)
        continue
      }
      let keyPath = try scanner.keyPath(until: "=")
      scanner.skipSpaces()
      let value = try scanner.value()
      scanner.skipSpaces()
      guard scanner.atEndOrComment else { throw Failure(line: lineNumber, message: "unexpected text after value") }
      try insert(&root, path: tablePath + keyPath, value: value, line: lineNumber)
    }
    return .object(root)
  }

  private static func ensureTable(_ object: inout JSONObject, path: [String], line: Int) throws {
    guard let first = path.first else { return }
    var child = object[first]?.object ?? JSONObject()
    if let existing = object[first], existing.object == nil {
      throw Failure(line: line, message: "'\(first)' is already a value, not a table")
    }
    try ensureTable(&child, path: Array(path.dropFirst()), line: line)
    object[first] = .object(child)
  }

  private static func insert(_ object: inout JSONObject, path: [String], value: JSON, line: Int) throws {
    guard let first = path.first else { return }
    if path.count == 1 {
      guard object[first] == nil else { throw Failure(line: line, message: "duplicate key '\(first)'") }
      object[first] = value
      return
    }
    var child = object[first]?.object ?? JSONObject()
    if let existing = object[first], existing.object == nil {
      throw Failure(line: line, message: "'\(first)' is already a value, not a table")
    }
    try insert(&child, path: Array(path.dropFirst()), value: value, line: line)
    object[first] = .object(child)
  }

  private struct Scanner {
    let scalars: [Unicode.Scalar]
    let line: Int
    var index = 0

    init(_ scalars: [Unicode.Scalar], line: Int) {
      self.scalars = scalars
      self.line = line
    }

    var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
    var atEndOrComment: Bool { peek == nil || peek == "#" || peek == "\r" }
    mutating func advance() { index += 1 }
    func fail(_ message: String) -> Failure { Failure(line: line, message: message) }

    mutating func skipSpaces() {
      while let scalar = peek, scalar == " " || scalar == "\t" { advance() }
    }

    mutating func keyPath(until terminator: Unicode.Scalar) throws -> [String] {
      var keys: [String] = []
      while true {
        skipSpaces()
        keys.append(try key())
        skipSpaces()
        if peek == "." {
          advance()
          continue
        }
        guard peek == terminator else { throw fail("expected '\(terminator)'") }
        advance()
        return keys
      }
    }

    mutating func key() throws -> String {
      if peek == "\"" { return try basicString() }
      if peek == "'" { return try literalString() }
      var key = ""
      while let scalar = peek, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-" {
        key.unicodeScalars.append(scalar)
        advance()
      }
      guard !key.isEmpty else { throw fail("expected a key") }
      return key
    }

    mutating func value() throws -> JSON {
      switch peek {
      case "\"": return .string(try basicString())
      case "'": return .string(try literalString())
      case "[": return try array()
      case "t", "f": return try boolean()
      case .some: return try number()
      case nil: throw fail("expected a value")
      }
    }

    mutating func array() throws -> JSON {
      advance()
      var items: [JSON] = []
      while true {
        skipSpaces()
        if peek == "]" {
          advance()
          return .array(items)
        }
        items.append(try value())
        skipSpaces()
        if peek == "," {
          advance()
        } else if peek != "]" {
          throw fail("expected ',' or ']' (arrays must be on one line)")
        }
      }
    }

    mutating func boolean() throws -> JSON {
      for (word, value) in [("true", true), ("false", false)] {
        let wordScalars = Array(word.unicodeScalars)
        if index + wordScalars.count <= scalars.count, Array(scalars[index..<index + wordScalars.count]) == wordScalars {
          index += wordScalars.count
          return .bool(value)
        }
      }
      throw fail("expected a value")
    }

    mutating func number() throws -> JSON {
      var text = ""
      while let scalar = peek, ("0"..."9").contains(scalar) || "+-._eE".unicodeScalars.contains(scalar) {
        if scalar != "_" { text.unicodeScalars.append(scalar) }
        advance()
      }
      if let integer = Int(text) { return .int(integer) }
      if let double = Double(text) { return .double(double) }
      throw fail(text.isEmpty ? "expected a value (strings need quotes)" : "invalid number '\(text)'")
    }

    mutating func literalString() throws -> String {
      advance()
      var text = ""
      while let scalar = peek, scalar != "'" {
        text.unicodeScalars.append(scalar)
        advance()
      }
      guard peek == "'" else { throw fail("unterminated string") }
      advance()
      return text
    }

    mutating func basicString() throws -> String {
      advance()
      var text = ""
      while let scalar = peek {
        advance()
        switch scalar {
        case "\"": return text
        case "\\":
          guard let escape = peek else { throw fail("unterminated string") }
          advance()
          switch escape {
          case "n": text += "\n"
          case "t": text += "\t"
          case "r": text += "\r"
          case "\"": text += "\""
          case "\\": text += "\\"
          case "u":
            var hex = ""
            for _ in 0..<4 {
              guard let digit = peek else { throw fail("invalid \\u escape") }
              hex.unicodeScalars.append(digit)
              advance()
            }
            guard let value = UInt32(hex, radix: 16), let unicode = Unicode.Scalar(value) else {
              throw fail("invalid \\u escape")
            }
            text.unicodeScalars.append(unicode)
          default: throw fail("invalid escape '\\\(escape)'")
          }
        default: text.unicodeScalars.append(scalar)
        }
      }
      throw fail("unterminated string")
    }
  }
}
