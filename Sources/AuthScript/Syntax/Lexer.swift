import ShellKit

/// Turns a file into lines of words, splitting each line exactly as the shell does (`WordSplitter`),
/// so a command reads the same in a `.auth` file, the REPL and a one-shot call. Comments and blank
/// lines vanish; a line that cannot be split (an unterminated quote) becomes a diagnostic.
package enum Lexer {
  package static func lex(_ file: SourceFile) -> (lines: [TokenLine], diagnostics: [Diagnostic]) {
    var lines: [TokenLine] = []
    var diagnostics: [Diagnostic] = []
    var index = 0
    while index < file.lines.count {
      let logical = joinContinuations(file.lines, from: &index)
      let number = logical.pieces[0].line
      let text = logical.text
      do {
        let words = try WordSplitter.split(text)
        guard !words.isEmpty else { continue }
        // Character offsets to string indices, once a line (a slice of the text copies fast; a
        // string built from an array of characters goes through generic code). On a line of one
        // byte a character they are byte offsets, found without walking the characters.
        let oneByte = WordSplitter.isOneBytePerCharacter(text)
        let offsets = oneByte ? [] : Array(text.indices) + [text.endIndex]
        let characters = oneByte ? text.utf8.count + 1 : offsets.count
        func index(_ offset: Int) -> String.Index {
          oneByte ? text.utf8.index(text.startIndex, offsetBy: offset) : offsets[offset]
        }
        let tokens = words.map { word in
          let low = max(0, min(word.start, characters - 1))
          let high = max(low, min(word.end, characters - 1))
          return Token(
            text: word.text, raw: String(text[index(low)..<index(high)]), quoted: word.quoted,
            range: logical.range(word.start, word.end))
        }
        lines.append(TokenLine(number: number, tokens: tokens))
      } catch {
        let column = max(0, error.column)
        let length = max(1, text.count - column)
        diagnostics.append(
          Diagnostic(
            error.message, file: file, range: logical.range(column, column + length), note: hint(for: error.message)))
      }
    }
    return (lines, diagnostics)
  }

  /// One statement's text: a line, plus the lines after it while a line ends with a single `\`
  /// (not in a comment), joined with a space; `pieces` maps offsets back to physical lines.
  struct LogicalLine {
    var text: String
    /// (physical line number, offset in `text` where that line starts)
    var pieces: [(line: Int, start: Int)]

    /// A range on the physical line where `start` falls (columns relative to that line).
    func range(_ start: Int, _ end: Int) -> SourceRange {
      let piece = pieces.last { $0.start <= start } ?? pieces[0]
      let lineEnd = pieces.first { $0.start > start }.map { $0.start - 1 } ?? text.count
      return SourceRange(line: piece.line, offsets: start - piece.start, max(start, min(end, lineEnd)) - piece.start)
    }
  }

  static func joinContinuations(_ physical: [String], from index: inout Int) -> LogicalLine {
    var logical = LogicalLine(text: physical[index], pieces: [(index + 1, 0)])
    index += 1
    while continues(logical.text), index < physical.count {
      logical.text.removeLast()
      logical.text += " "
      logical.pieces.append((index + 1, logical.text.count))
      logical.text += physical[index]
      index += 1
    }
    return logical
  }

  /// Ends with an odd number of backslashes and is not a comment line.
  static func continues(_ text: String) -> Bool {
    guard !text.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("#") else { return false }
    let trailing = text.reversed().prefix { $0 == "\\" }.count
    return trailing % 2 == 1
  }

  private static func hint(for message: String) -> String {
    switch message {
    case "unterminated single quote", "unterminated double quote": return "the quote is never closed on this line"
    case "unterminated '{{'": return "close the variable with '}}'"
    case "trailing backslash": return "a line cannot end with '\\'"
    default: return message
    }
  }
}
