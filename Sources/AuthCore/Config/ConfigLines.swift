import Essentials

/// Finds the line a key or table of an already parsed (valid) `config.toml` is written on, for error
/// messages. The TOML parser gives positions for syntax errors only, so this looks for the key's
/// spelling under its table header: `[profiles.a]` + `url = …`, a dotted `profiles.a.url = …`,
/// or an inline `a = { url = … }`. It never decides what a value is; when in doubt it answers nil
/// and the message names the file without a line.
struct ConfigLines {
  private let lines: [String]

  init(_ text: String) {
    // "\r\n" is one Character in Swift, so splitting on "\n" alone would keep a CRLF file in one piece.
    var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map(String.init)
    if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = String(first.dropFirst()) }
    self.lines = lines
  }

  /// The 1-based line of `path` (table names then the key), or nil when it cannot be told.
  func line(of path: [String]) -> Int? {
    guard let last = path.last else { return nil }
    var header: [String] = []
    for (index, raw) in lines.enumerated() {
      let line = raw.drop { $0 == " " || $0 == "\t" }
      if line.hasPrefix("[") {
        header = Self.headerPath(line)
        if header.starts(with: path) { return index + 1 }
        continue
      }
      guard path.count > header.count, Array(path.prefix(header.count)) == header else { continue }
      let rest = path[header.count...]
      guard let first = rest.first, Self.hasKey(first, in: line, atStart: true) else { continue }
      if rest.count == 1 || Self.hasKey(last, in: line, atStart: false) { return index + 1 }
    }
    return nil
  }

  /// `[a.b]`, `[[a.b]]`, `[ "a" . 'b' ]` → ["a", "b"].
  static func headerPath(_ line: Substring) -> [String] {
    var text = line.drop { $0 == "[" }
    var parts: [String] = []
    var current = ""
    var quote: Character?
    while let character = text.first {
      text = text.dropFirst()
      if let open = quote {
        if character == open { quote = nil } else { current.append(character) }
      } else if character == "\"" || character == "'" {
        quote = character
      } else if character == "." {
        parts.append(current)
        current = ""
      } else if character == "]" {
        break
      } else if character != " " && character != "\t" {
        current.append(character)
      }
    }
    parts.append(current)
    return parts
  }

  /// Whether `key` is written as a key in `line`: bare or quoted, followed by `=` or `.`; with
  /// `atStart`, it must be the line's first key.
  static func hasKey(_ key: String, in line: Substring, atStart: Bool) -> Bool {
    var searchFrom = line.startIndex
    while let range = line[searchFrom...].firstRange(of: key) {
      searchFrom = range.upperBound
      var before = line[..<range.lowerBound]
      if before.last == "\"" || before.last == "'" { before = before.dropLast() }
      let beforeTrimmed = before.reversed().drop { $0 == " " || $0 == "\t" }
      let opensKey = atStart ? beforeTrimmed.isEmpty : (beforeTrimmed.first.map { "{,.".contains($0) } ?? true)
      guard opensKey, before.last.map({ " \t{,.".contains($0) }) ?? true else { continue }
      var after = line[range.upperBound...]
      if after.first == "\"" || after.first == "'" { after = after.dropFirst() }
      if let next = after.drop(while: { $0 == " " || $0 == "\t" }).first, next == "=" || next == "." { return true }
    }
    return false
  }
}
