/// How text is laid out on the terminal that shows it: the one place that decides whether the
/// locale can show authsh's marks (`✓ ✗ ⚠ — … →`), their ASCII forms when it cannot, and the
/// wrapping of long lines to the window's width at word boundaries.
package enum TerminalLayout {
  /// Whether the effective `LC_CTYPE` is UTF-8: the first non-empty of `LC_ALL`, `LC_CTYPE` and
  /// `LANG` names UTF-8 (`C.UTF-8`, `en_US.utf8`). None set is the C locale: ASCII.
  package static func unicodeLocale(_ environment: [String: String]) -> Bool {
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
    let upper = locale.uppercased()
    return upper.contains("UTF-8") || upper.contains("UTF8")
  }

  /// The ASCII form of each mark authsh prints (the QR code's blocks are not drawn at all then).
  static let asciiForms: [Unicode.Scalar: String] = [
    "✓": "ok", "✗": "x", "⚠": "!", "—": "--", "–": "-", "…": "...", "⋮": ":", "→": "->", "←": "<-",
    "⇄": "<->", "›": ">", "·": "-", "•": "*", "“": "\"", "”": "\"", "‘": "'", "’": "'", "≤": "<=",
    "≥": ">=", "µ": "u", "μ": "u", "×": "x", "█": "#", "▀": "#", "▄": "#",
  ]

  /// `text` with authsh's marks in their ASCII forms; other characters (a user's name) unchanged.
  package static func ascii(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { asciiForms[$0] != nil }) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if let form = asciiForms[scalar] { out += form } else { out.unicodeScalars.append(scalar) }
    }
    return out
  }

  /// Each line of `text` no wider than `width`, broken at spaces only (a word longer than the
  /// line stays whole). A continuation keeps the line's indent, and lines up under a table's
  /// value column (`key   value`) or a numbered item's text (`1. `) when the words fit there.
  /// Lines a terminal redraws (`\r`, escape codes other than colour) and JSON lines (first
  /// character `{ [ "` after the indent) are left whole, so a copied value stays one piece.
  package static func wrap(_ text: String, width: Int) -> String {
    guard width >= 20 else { return text }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for index in lines.indices where visibleWidth(lines[index]) > width {
      lines[index] = wrapLine(lines[index], width: width)
    }
    return lines.joined(separator: "\n")
  }

  static func wrapLine(_ line: String, width: Int) -> String {
    if line.contains("\r") || line.contains("\u{1B}[K") { return line }
    let leading = line.prefix { $0 == " " }.count
    let body = line.dropFirst(leading)
    if let first = body.first, "{[\"".contains(first) { return line }
    let words = body.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    guard words.count > 1 else { return line }
    let hanging = hangingIndent(line, leading: leading)
    let widest = words.dropFirst().map(visibleWidth).max() ?? 0
    let indent = hanging + widest <= width ? hanging : min(leading + 2, max(0, width - widest))
    // The first line keeps its own spacing (a table's padding) up to where it must break.
    var out: [String] = []
    var current = String(line.prefix(leading))
    var currentWidth = leading
    var rest = Substring(body)
    var atLineStart = true
    for word in words {
      let wordWidth = visibleWidth(word)
      let original = spaces(before: word, in: &rest)
      let gap = atLineStart ? 0 : (out.isEmpty ? original : 1)
      if !atLineStart && currentWidth + gap + wordWidth > width {
        out.append(current)
        current = String(repeating: " ", count: indent) + word
        currentWidth = indent + wordWidth
      } else {
        current += String(repeating: " ", count: gap) + word
        currentWidth += gap + wordWidth
      }
      atLineStart = false
    }
    out.append(current)
    return out.joined(separator: "\n")
  }

  /// The spaces that stood before `word` in the original line (consumed from `rest`).
  private static func spaces(before word: String, in rest: inout Substring) -> Int {
    let count = rest.prefix { $0 == " " }.count
    rest = rest.dropFirst(count)
    if rest.hasPrefix(word) { rest = rest.dropFirst(word.count) }
    return count
  }

  /// Where a continuation starts: after a table key's gap (two or more spaces) in the first half
  /// of the line, after `1. ` or `- `, else the line's own indent.
  static func hangingIndent(_ line: String, leading: Int) -> Int {
    let plain = stripped(line)
    let body = plain.dropFirst(leading)
    if let marker = body.prefixMatch(of: #/(\d+\.|-|\*) /#) { return leading + marker.output.0.count }
    if let gap = body.firstMatch(of: #/\S  +(?=\S)/#),
      body.distance(from: body.startIndex, to: gap.range.lowerBound) < 48
    {
      return leading + body.distance(from: body.startIndex, to: gap.range.upperBound)
    }
    return leading
  }

  /// Columns a line takes: its characters without colour escapes.
  package static func visibleWidth(_ text: String) -> Int { stripped(text).count }

  static func stripped(_ text: String) -> String {
    guard text.contains("\u{1B}") else { return text }
    return text.replacing(#/\x{1B}\[[0-9;]*m/#, with: "")
  }
}
