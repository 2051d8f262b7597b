import AuthCore
import Essentials
import ShellKit

/// The one place diagnostics become text, in the caret style:
///
/// ```
/// error: unknown command 'logn'
///   --> smoke.auth:7:1
///    |
///  7 | logn {{email}} --password {{pw}}
///    | ^^^^ did you mean 'login'?
/// ```
///
/// Secrets are masked in the source line and notes before carets are placed, so carets still point
/// at the right word after a literal password became `***`; control and bidi characters (from the
/// script or a server's message) show as escapes (`TerminalText`), measured the same way.
package struct DiagnosticRenderer: Sendable {
  package var style: Style
  /// Masks secrets (a `Redactor`, or several when files do not share one).
  package var redaction: (@Sendable (String) -> String)?

  package init(style: Style = .plain, redactor: Redactor? = nil) {
    self.style = style
    if let redactor {
      self.redaction = { @Sendable text in redactor.redact(text) }
    } else {
      self.redaction = nil
    }
  }

  package init(style: Style, redaction: (@Sendable (String) -> String)?) {
    self.style = style
    self.redaction = redaction
  }

  package func render(_ diagnostic: Diagnostic) -> String {
    let label = diagnostic.severity.rawValue
    let headline = diagnostic.severity == .error ? style.red(style.bold(label)) : style.yellow(style.bold(label))
    var out = headline + style.bold(": " + redact(diagnostic.title)) + "\n"
    guard let location = diagnostic.location else {
      for line in [diagnostic.note].compactMap({ $0 }) + diagnostic.notes { out += "  " + redact(line) + "\n" }
      return out
    }
    guard let range = diagnostic.range, let source = diagnostic.sourceLine else {
      out += "  " + style.dim("-->") + " " + redact(location) + "\n"
      return out
    }
    // Hurl's layout: line numbers right-aligned in at least two columns, so `  -->` and `   |`.
    let digits = String(range.start.line)
    let width = max(2, digits.count)
    let number = String(repeating: " ", count: width - digits.count) + digits
    let gutter = String(repeating: " ", count: width)
    let bar = style.dim("|")
    out += gutter + style.dim("-->") + " " + redact(location) + "\n"
    out += gutter + " " + bar + "\n"
    let line = source.replacingAll("\t", with: " ")
    out += style.dim(number) + " " + bar + " " + redact(line) + "\n"
    let characters = Array(line)
    let startOffset = min(max(0, range.start.column - 1), characters.count)
    let endOffset: Int
    if range.end.line == range.start.line {
      endOffset = min(max(startOffset + 1, range.end.column - 1), max(characters.count, startOffset + 1))
    } else {
      endOffset = max(startOffset + 1, characters.count)
    }
    let before = redact(String(characters[0..<startOffset])).count
    let upper = min(endOffset, characters.count)
    let caretWidth = max(1, upper > startOffset ? redact(String(characters[startOffset..<upper])).count : 1)
    let pad = String(repeating: " ", count: before)
    let carets = style.red(String(repeating: "^", count: caretWidth))
    let note = diagnostic.note.map { " " + redact($0) } ?? ""
    out += gutter + " " + bar + " " + pad + carets + note + "\n"
    let indent = String(repeating: " ", count: before + caretWidth + 1)
    for extra in diagnostic.notes {
      out += gutter + " " + bar + " " + indent + redact(extra) + "\n"
    }
    return out
  }

  /// Several diagnostics, separated by blank lines.
  package func render(_ diagnostics: [Diagnostic]) -> String {
    diagnostics.map(render).joined(separator: "\n")
  }

  /// Masks secrets, then escapes control and bidi characters.
  private func redact(_ text: String) -> String { TerminalText.escape(redaction?(text) ?? text) }
}
