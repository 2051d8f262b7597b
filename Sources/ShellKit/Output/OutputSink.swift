import AuthCore
import Essentials

package enum OutputStream: Sendable {
  case standardOutput, standardError
}

/// Where text goes (stdout, stderr). Library code writes only through a sink; the executable
/// provides the real one, tests capture.
package protocol OutputSink: Sendable {
  func write(_ text: String, to stream: OutputStream)
}

extension OutputSink {
  package func out(_ text: String) { write(text, to: .standardOutput) }
  package func err(_ text: String) { write(text, to: .standardError) }
}

/// Passes everything through a redactor first: the last line of defence for secrets.
package struct RedactingSink: OutputSink {
  package let base: any OutputSink
  package let redactor: Redactor
  package init(_ base: any OutputSink, redactor: Redactor) {
    self.base = base
    self.redactor = redactor
  }
  package func write(_ text: String, to stream: OutputStream) { base.write(redactor.redact(text), to: stream) }

  /// `sink`, showing `values` if it is a redacting sink (a Firebase link's public `apiKey`), at
  /// every layer (piped input runs a script inside the shell's own redacting sink).
  package static func revealing(_ values: [String], in sink: any OutputSink) -> any OutputSink {
    guard !values.isEmpty, let redacting = sink as? RedactingSink else { return sink }
    return RedactingSink(revealing(values, in: redacting.base), redactor: redacting.redactor.revealing(values))
  }
}

/// Collects output (tests, grouped output of parallel script files).
package final class CapturingSink: OutputSink, Sendable {
  private let captured = Guarded<[(stream: OutputStream, text: String)]>([])
  package var chunks: [(stream: OutputStream, text: String)] { captured[\.self] }
  package init() {}
  package func write(_ text: String, to stream: OutputStream) {
    captured.update { $0.append((stream, text)) }
  }
  package var standardOutput: String { text(of: .standardOutput) }
  package var standardError: String { text(of: .standardError) }
  package var combined: String { captured.update { $0.map(\.text).joined() } }
  private func text(of stream: OutputStream) -> String {
    captured.update { $0.filter { $0.stream == stream }.map(\.text).joined() }
  }
}

/// How to print: colour and marks depend on the terminal, `NO_COLOR` and the locale
/// (`TerminalLayout.unicodeLocale`); `width` is the terminal's columns (nil: not a terminal),
/// which tables and the QR code must fit.
package struct Style: Sendable, Equatable {
  package var color: Bool
  package var unicode: Bool
  package var width: Int?
  package init(color: Bool, unicode: Bool = true, width: Int? = nil) {
    self.color = color
    self.unicode = unicode
    self.width = width
  }
  package static let plain = Style(color: false)

  package func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
  package func red(_ text: String) -> String { paint(text, "31") }
  package func green(_ text: String) -> String { paint(text, "32") }
  package func yellow(_ text: String) -> String { paint(text, "33") }
  package func bold(_ text: String) -> String { paint(text, "1") }
  package func dim(_ text: String) -> String { paint(text, "2") }
  package var check: String { unicode ? "✓" : "ok" }
  package var cross: String { unicode ? "✗" : "FAIL" }
}
