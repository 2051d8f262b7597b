/// Makes outside text (names, e-mails, metadata, server messages, script text) safe to print on
/// a terminal: C0 and C1 control characters, DEL and bidirectional-formatting characters become
/// visible escapes (`\e[2J`, `\u{202E}`), so a value can neither clear the screen, retitle the
/// window, reorder what is shown around it, nor break its line (U+2028, U+2029). Human renderers pass every such value through
/// here before adding their own colour; JSON output is escaped by its serializer instead.
package enum TerminalText {
  /// One value on one line: newlines and tabs are escaped too.
  package static func escape(_ text: String) -> String { escaped(text, keepingLines: false) }

  /// A block of text whose line breaks (and tabs) are meant to show.
  package static func escapeKeepingLines(_ text: String) -> String { escaped(text, keepingLines: true) }

  static func escaped(_ text: String, keepingLines: Bool) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      if keepingLines && (scalar == "\n" || scalar == "\t") || !needsEscape(scalar) {
        out.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\u{1B}": out += "\\e"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return out
  }

  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: return true  // C0, DEL, C1 (CSI, OSC, … as single characters)
    // Bidi marks, embeddings, overrides, isolates.
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
    case 0x2028, 0x2029: return true  // line and paragraph separators: a line break inside one value
    default: return false
    }
  }
}
