import Essentials

/// A 1-based line and column (columns count characters, as the word splitter does).
package struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
  package var line: Int
  package var column: Int

  package init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  package static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
    (lhs.line, lhs.column) < (rhs.line, rhs.column)
  }

  package var description: String { "\(line):\(column)" }
}

/// `start..<end` in one file. Every AST node carries one; runtime failures borrow it.
package struct SourceRange: Sendable, Hashable, CustomStringConvertible {
  package var start: SourceLocation
  package var end: SourceLocation

  package init(start: SourceLocation, end: SourceLocation) {
    self.start = start
    self.end = max(start, end)
  }

  /// Columns `start..<end` (0-based character offsets, as `Word` gives them) on `line`.
  package init(line: Int, offsets start: Int, _ end: Int) {
    self.init(
      start: SourceLocation(line: line, column: start + 1), end: SourceLocation(line: line, column: end + 1))
  }

  /// The smallest range covering both.
  package func union(_ other: SourceRange) -> SourceRange {
    SourceRange(start: min(start, other.start), end: max(end, other.end))
  }

  package var description: String { "\(start)-\(end)" }
}

/// One `.auth` text: where it came from (as the user named it), its lines.
package struct SourceFile: Sendable, Hashable {
  /// The path as shown in messages (`smoke/login.auth`), or `<stdin>`.
  package var name: String
  /// The path used to resolve `include` (nil for stdin: includes resolve against the working directory).
  package var path: String?
  package var text: String
  package let lines: [String]

  package init(name: String, path: String? = nil, text: String) {
    self.name = name
    self.path = path
    var body = text
    if body.hasPrefix("\u{FEFF}") { body.removeFirst() }
    self.text = body
    self.lines = SourceFile.splitLines(body)
  }

  /// The text of a 1-based line, or "" when out of range.
  package func line(_ number: Int) -> String {
    lines.indices.contains(number - 1) ? lines[number - 1] : ""
  }

  /// The directory `include` paths are relative to.
  package var directory: String {
    guard let path else { return FileManager.default.currentDirectoryPath }
    let parent = parentDirectory(of: path)
    return parent.isEmpty ? "." : parent
  }

  /// The file name without directory and `.auth` (a file without `test` is one test named so).
  package var baseName: String {
    let last = PathText.lastComponent(name)
    return last.hasSuffix(".auth") ? String(last.dropLast(5)) : last
  }

  /// Splits on `\n`, `\r\n` and lone `\r`; a final newline does not add an empty line.
  static func splitLines(_ text: String) -> [String] {
    var lines: [String] = []
    var current = ""
    var previousWasCR = false
    for scalar in text.unicodeScalars {
      if scalar == "\n" {
        if !previousWasCR { lines.append(current) }
        current = ""
        previousWasCR = false
      } else if scalar == "\r" {
        lines.append(current)
        current = ""
        previousWasCR = true
      } else {
        current.unicodeScalars.append(scalar)
        previousWasCR = false
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }
}
