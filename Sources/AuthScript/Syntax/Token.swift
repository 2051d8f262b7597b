/// One shell-style word of a `.auth` line, with its place in the file.
public struct Token: Sendable, Hashable {
  /// The word after quote removal (`{{…}}` kept as written, for interpolation).
  public var text: String
  /// The word exactly as written (quotes included).
  public var raw: String
  /// Whether any part was quoted: then it is a string, never a keyword, number or flag.
  public var quoted: Bool
  public var range: SourceRange

  public init(text: String, raw: String, quoted: Bool, range: SourceRange) {
    self.text = text
    self.raw = raw
    self.quoted = quoted
    self.range = range
  }

  /// Whether this unquoted word is exactly `keyword`.
  public func isKeyword(_ keyword: String) -> Bool { !quoted && text == keyword }
}

/// The words of one non-empty line.
public struct TokenLine: Sendable, Hashable {
  /// 1-based line number.
  public var number: Int
  public var tokens: [Token]

  public init(number: Int, tokens: [Token]) {
    self.number = number
    self.tokens = tokens
  }

  /// From the first word to the end of the last.
  public var range: SourceRange {
    guard let first = tokens.first, let last = tokens.last else {
      return SourceRange(line: number, offsets: 0, 0)
    }
    return first.range.union(last.range)
  }
}
