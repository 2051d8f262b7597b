import AuthCore
import JSONKit

/// A `{{…}}` hole in a typed line that could not be filled: the line runs nothing.
package struct InterpolationError: Error, Sendable, Equatable {
  package var message: String
  package var note: String?
  /// Character offsets `start..<end` of the hole in the line.
  package var start: Int
  package var end: Int

  package init(_ message: String, note: String? = nil, start: Int, end: Int) {
    self.message = message
    self.note = note
    self.start = start
    self.end = end
  }
}

/// Fills the `{{…}}` holes of a line's words (the script engine, injected by the executable):
/// `previous` is the last command's result model, tokens included (output is redacted later).
package typealias LineInterpolator =
  @Sendable (_ words: [Word], _ line: String, _ previous: JSON?) -> Result<
    [Word], InterpolationError
  >

extension ReplRendering {
  /// `error: undefined variable 'x'`, the line with a caret under the hole, and the note.
  static func interpolationError(_ error: InterpolationError, line: String, style: Style) -> String {
    let safe = TerminalText.escape
    var lines = [style.red("error:") + " " + safe(error.message)]
    if !HistoryPolicy.mentionsSecret(line) {
      let chars = Array(line)
      let start = max(0, min(error.start, chars.count))
      let end = max(start, min(error.end, chars.count))
      let width = max(1, safe(String(chars[start..<end])).count)
      lines.append("  " + safe(line))
      let caret =
        "  " + String(repeating: " ", count: safe(String(chars[0..<start])).count)
        + style.red(String(repeating: "^", count: width))
      lines.append(caret + (error.note.map { " " + safe($0) } ?? ""))
    } else if let note = error.note {
      lines.append("  " + safe(note))
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
