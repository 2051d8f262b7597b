/// One shell-style word of a `.auth` line, with its place in the file.
package struct Token: Sendable, Hashable {
  /// The word after quote removal (`{{…}}` kept as written, for interpolation).
  package var text: String
  /// The word exactly as written (quotes included).
  package var raw: String
  /// Whether any part was quoted: then it is a string, never a keyword, number or flag.
  package var quoted: Bool
  package var range: SourceRange

  package init(text: String, raw: String, quoted: Bool, range: SourceRange) {
    self.text = text
    self.raw = raw
    self.quoted = quoted
    self.range = range
  }

  /// Whether this unquoted word is exactly `keyword`.
  package func isKeyword(_ keyword: String) -> Bool { !quoted && text == keyword }
}

/// The words of one non-empty line.
package struct TokenLine: Sendable, Hashable {
  /// 1-based line number.
  package var number: Int
  package var tokens: [Token]

  package init(number: Int, tokens: [Token]) {
    self.number = number
    self.tokens = tokens
  }

  /// From the first word to the end of the last.
  package var range: SourceRange {
    guard let first = tokens.first, let last = tokens.last else {
      return SourceRange(line: number, offsets: 0, 0)
    }
    return first.range.union(last.range)
  }
}
