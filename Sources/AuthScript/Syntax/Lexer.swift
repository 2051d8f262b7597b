import ShellKit

/// Turns a file into lines of words, splitting each line exactly as the shell does (`WordSplitter`),
/// so a command reads the same in a `.auth` file, the REPL and a one-shot call. Comments and blank
/// lines vanish; a line that cannot be split (an unterminated quote) becomes a diagnostic.
public enum Lexer {
  public static func lex(_ file: SourceFile) -> (lines: [TokenLine], diagnostics: [Diagnostic]) {
    var lines: [TokenLine] = []
    var diagnostics: [Diagnostic] = []
    for (index, text) in file.lines.enumerated() {
      let number = index + 1
      do {
        let words = try WordSplitter.split(text)
        guard !words.isEmpty else { continue }
        let characters = Array(text)
        let tokens = words.map { word in
          let low = max(0, min(word.start, characters.count))
          let high = max(low, min(word.end, characters.count))
          return Token(
            text: word.text, raw: String(characters[low..<high]), quoted: word.quoted,
            range: SourceRange(line: number, offsets: word.start, word.end))
        }
        lines.append(TokenLine(number: number, tokens: tokens))
      } catch {
        let column = max(0, error.column)
        let length = max(1, text.count - column)
        diagnostics.append(
          Diagnostic(
            error.message, file: file, range: SourceRange(line: number, offsets: column, column + length),
            note: hint(for: error.message)))
      }
    }
    return (lines, diagnostics)
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
