import AuthCore
import Essentials

public enum OutputStream: Sendable {
  case standardOutput, standardError
}

/// Where text goes (stdout, stderr). Library code writes only through a sink; the executable
/// provides the real one, tests capture.
public protocol OutputSink: Sendable {
  func write(_ text: String, to stream: OutputStream)
}

extension OutputSink {
  public func out(_ text: String) { write(text, to: .standardOutput) }
  public func err(_ text: String) { write(text, to: .standardError) }
}

/// Passes everything through a redactor first: the last line of defence for secrets.
public struct RedactingSink: OutputSink {
  public let base: any OutputSink
  public let redactor: Redactor
  public init(_ base: any OutputSink, redactor: Redactor) {
    self.base = base
    self.redactor = redactor
  }
  public func write(_ text: String, to stream: OutputStream) { base.write(redactor.redact(text), to: stream) }

  /// `sink`, showing `values` if it is a redacting sink (a Firebase link's public `apiKey`), at
  /// every layer (piped input runs a script inside the shell's own redacting sink).
  public static func revealing(_ values: [String], in sink: any OutputSink) -> any OutputSink {
    guard !values.isEmpty, let redacting = sink as? RedactingSink else { return sink }
    return RedactingSink(revealing(values, in: redacting.base), redactor: redacting.redactor.revealing(values))
  }
}

/// Collects output (tests, grouped output of parallel script files).
public final class CapturingSink: OutputSink, Sendable {
  private let captured = Guarded<[(stream: OutputStream, text: String)]>([])
  public var chunks: [(stream: OutputStream, text: String)] { captured[\.self] }
  public init() {}
  public func write(_ text: String, to stream: OutputStream) {
    captured.update { $0.append((stream, text)) }
  }
  public var standardOutput: String { text(of: .standardOutput) }
  public var standardError: String { text(of: .standardError) }
  public var combined: String { captured.update { $0.map(\.text).joined() } }
  private func text(of stream: OutputStream) -> String {
    captured.update { $0.filter { $0.stream == stream }.map(\.text).joined() }
  }
}

/// How to print: colour and marks depend on the terminal, `NO_COLOR` and the locale
/// (`TerminalLayout.unicodeLocale`); `width` is the terminal's columns (nil: not a terminal),
/// which tables and the QR code must fit.
public struct Style: Sendable, Equatable {
  public var color: Bool
  public var unicode: Bool
  public var width: Int?
  public init(color: Bool, unicode: Bool = true, width: Int? = nil) {
    self.color = color
    self.unicode = unicode
    self.width = width
  }
  public static let plain = Style(color: false)

  public func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
  public func red(_ text: String) -> String { paint(text, "31") }
  public func green(_ text: String) -> String { paint(text, "32") }
  public func yellow(_ text: String) -> String { paint(text, "33") }
  public func bold(_ text: String) -> String { paint(text, "1") }
  public func dim(_ text: String) -> String { paint(text, "2") }
  public var check: String { unicode ? "✓" : "ok" }
  public var cross: String { unicode ? "✗" : "FAIL" }
}
