import Essentials

/// One shell-style word of a line, with where it came from.
package struct Word: Sendable, Equatable {
  /// The word after quote removal and escapes (`{{…}}` kept as written, for interpolation).
  package var text: String
  /// Character offsets in the line, `start..<end`, of the word as written (quotes included).
  package var start: Int
  package var end: Int
  /// Whether any part was quoted (then `"--x"` is a value, not a flag).
  package var quoted: Bool

  package init(text: String, start: Int, end: Int, quoted: Bool = false) {
    self.text = text
    self.start = start
    self.end = end
    self.quoted = quoted
  }
}

package struct SplitError: Error, Equatable, Sendable {
  package var message: String
  /// Character offset of the problem.
  package var column: Int
}

/// Splits a line like a POSIX shell would, minus expansion: whitespace separates words; single
/// quotes are literal; double quotes allow `\"` and `\\`; a backslash outside quotes escapes the
/// next character; `#` at the start of a word begins a comment; `{{ … }}` stays in one word.
package enum WordSplitter {
  package static func split(_ line: String) throws(SplitError) -> [Word] {
    // Splitting bytes is several times cheaper than splitting characters.
    if isOneBytePerCharacter(line) { return try split(Array(line.utf8)) }
    return try split(Array(line))
  }

  /// Whether every character of `line` is one byte: ASCII without a line break (only "\r\n" makes
  /// two ASCII bytes one character). Then character offsets are byte offsets.
  package static func isOneBytePerCharacter(_ line: String) -> Bool {
    line.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0A }
  }

  static func split<Unit: SplitUnit>(_ chars: [Unit]) throws(SplitError) -> [Word] {
    var words: [Word] = []
    var index = 0
    while index < chars.count {
      while index < chars.count, chars[index] == .space || chars[index] == .tab || chars[index] == .carriageReturn {
        index += 1
      }
      guard index < chars.count else { break }
      if chars[index] == .hash { break }
      let start = index
      var text: [Unit] = []
      var quoted = false
      wordLoop: while index < chars.count {
        let c = chars[index]
        switch c {
        case .space, .tab, .carriageReturn:
          break wordLoop
        case .singleQuote:
          quoted = true
          guard let close = chars[(index + 1)...].firstIndex(of: .singleQuote) else {
            throw SplitError(message: "unterminated single quote", column: index)
          }
          text += chars[(index + 1)..<close]
          index = close + 1
        case .doubleQuote:
          quoted = true
          index += 1
          var closed = false
          while index < chars.count {
            let d = chars[index]
            if d == .doubleQuote {
              closed = true
              index += 1
              break
            }
            if d == .backslash, index + 1 < chars.count,
              chars[index + 1] == .doubleQuote || chars[index + 1] == .backslash
            {
              text.append(chars[index + 1])
              index += 2
              continue
            }
            text.append(d)
            index += 1
          }
          guard closed else { throw SplitError(message: "unterminated double quote", column: start) }
        case .backslash:
          guard index + 1 < chars.count else { throw SplitError(message: "trailing backslash", column: index) }
          text.append(chars[index + 1])
          index += 2
        case .openBrace where index + 1 < chars.count && chars[index + 1] == .openBrace:
          // Keep a whole `{{ … }}` in the word, spaces included.
          var close = index + 2
          while close + 1 < chars.count, !(chars[close] == .closeBrace && chars[close + 1] == .closeBrace) {
            close += 1
          }
          guard close + 1 < chars.count else { throw SplitError(message: "unterminated '{{'", column: index) }
          text += chars[index...(close + 1)]
          index = close + 2
        default:
          text.append(c)
          index += 1
        }
      }
      words.append(Word(text: Unit.string(text), start: start, end: index, quoted: quoted))
    }
    return words
  }

  /// Quotes a word so `split` gives it back unchanged (for history and `retry`).
  package static func quote(_ text: String) -> String {
    let plain = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || "@._-+/:=,%~".contains($0) }
    if plain { return text }
    return "'" + text.replacingAll("'", with: "'\\''") + "'"
  }
}

/// What `WordSplitter` splits: characters, or the bytes of an ASCII line (one byte a character).
protocol SplitUnit: Equatable {
  static var space: Self { get }
  static var tab: Self { get }
  static var carriageReturn: Self { get }
  static var hash: Self { get }
  static var singleQuote: Self { get }
  static var doubleQuote: Self { get }
  static var backslash: Self { get }
  static var openBrace: Self { get }
  static var closeBrace: Self { get }
  static func string(_ units: [Self]) -> String
}

extension Character: SplitUnit {
  static var space: Character { " " }
  static var tab: Character { "\t" }
  static var carriageReturn: Character { "\r" }
  static var hash: Character { "#" }
  static var singleQuote: Character { "'" }
  static var doubleQuote: Character { "\"" }
  static var backslash: Character { "\\" }
  static var openBrace: Character { "{" }
  static var closeBrace: Character { "}" }
  static func string(_ units: [Character]) -> String { String(units) }
}

extension UInt8: SplitUnit {
  static var space: UInt8 { UInt8(ascii: " ") }
  static var tab: UInt8 { UInt8(ascii: "\t") }
  static var carriageReturn: UInt8 { UInt8(ascii: "\r") }
  static var hash: UInt8 { UInt8(ascii: "#") }
  static var singleQuote: UInt8 { UInt8(ascii: "'") }
  static var doubleQuote: UInt8 { UInt8(ascii: "\"") }
  static var backslash: UInt8 { UInt8(ascii: "\\") }
  static var openBrace: UInt8 { UInt8(ascii: "{") }
  static var closeBrace: UInt8 { UInt8(ascii: "}") }
  static func string(_ units: [UInt8]) -> String { String(decoding: units, as: UTF8.self) }
}
