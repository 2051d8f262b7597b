import Foundation

/// One shell-style word of a line, with where it came from.
public struct Word: Sendable, Equatable {
  /// The word after quote removal and escapes (`{{…}}` kept as written, for interpolation).
  public var text: String
  /// Character offsets in the line, `start..<end`, of the word as written (quotes included).
  public var start: Int
  public var end: Int
  /// Whether any part was quoted (then `"--x"` is a value, not a flag).
  public var quoted: Bool

  public init(text: String, start: Int, end: Int, quoted: Bool = false) {
    self.text = text
    self.start = start
    self.end = end
    self.quoted = quoted
  }
}

public struct SplitError: Error, Equatable, Sendable {
  public var message: String
  /// Character offset of the problem.
  public var column: Int
}

/// Splits a line like a POSIX shell would, minus expansion: whitespace separates words; single
/// quotes are literal; double quotes allow `\"` and `\\`; a backslash outside quotes escapes the
/// next character; `#` at the start of a word begins a comment; `{{ … }}` stays in one word.
public enum WordSplitter {
  public static func split(_ line: String) throws(SplitError) -> [Word] {
    let chars = Array(line)
    var words: [Word] = []
    var index = 0
    while index < chars.count {
      while index < chars.count, chars[index] == " " || chars[index] == "\t" || chars[index] == "\r" { index += 1 }
      guard index < chars.count else { break }
      if chars[index] == "#" { break }
      let start = index
      var text = ""
      var quoted = false
      wordLoop: while index < chars.count {
        let c = chars[index]
        switch c {
        case " ", "\t", "\r":
          break wordLoop
        case "'":
          quoted = true
          guard let close = chars[(index + 1)...].firstIndex(of: "'") else {
            throw SplitError(message: "unterminated single quote", column: index)
          }
          text += String(chars[(index + 1)..<close])
          index = close + 1
        case "\"":
          quoted = true
          index += 1
          var closed = false
          while index < chars.count {
            let d = chars[index]
            if d == "\"" {
              closed = true
              index += 1
              break
            }
            if d == "\\", index + 1 < chars.count, chars[index + 1] == "\"" || chars[index + 1] == "\\" {
              text.append(chars[index + 1])
              index += 2
              continue
            }
            text.append(d)
            index += 1
          }
          guard closed else { throw SplitError(message: "unterminated double quote", column: start) }
        case "\\":
          guard index + 1 < chars.count else { throw SplitError(message: "trailing backslash", column: index) }
          text.append(chars[index + 1])
          index += 2
        case "{" where index + 1 < chars.count && chars[index + 1] == "{":
          // Keep a whole `{{ … }}` in the word, spaces included.
          var close = index + 2
          while close + 1 < chars.count, !(chars[close] == "}" && chars[close + 1] == "}") { close += 1 }
          guard close + 1 < chars.count else { throw SplitError(message: "unterminated '{{'", column: index) }
          text += String(chars[index...(close + 1)])
          index = close + 2
        default:
          text.append(c)
          index += 1
        }
      }
      words.append(Word(text: text, start: start, end: index, quoted: quoted))
    }
    return words
  }

  /// Quotes a word so `split` gives it back unchanged (for history and `retry`).
  public static func quote(_ text: String) -> String {
    let plain = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || "@._-+/:=,%~".contains($0) }
    if plain { return text }
    return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
