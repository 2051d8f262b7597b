import AuthCore
import ShellKit

/// Terminal text of a run: a header per file, one line per test with ✓/✗ and its time, failures in
/// the caret style, and the closing `N passed, N failed` line.
package struct ConsoleReporter: Sendable {
  package var style: Style
  package var renderer: DiagnosticRenderer

  package init(style: Style, redactor: Redactor?) {
    self.style = style
    self.renderer = DiagnosticRenderer(style: style, redactor: redactor)
  }

  package func header(_ file: String) -> String { style.bold(TerminalText.escape(file)) + "\n" }

  /// `  ✓ name (12 ms)`, `  ✗ name (3 ms)`, `  ✗ name (3 ms) error: timeout` (the backend failed,
  /// not the test), `  - name (skipped: reason)`.
  package func line(for test: TestResult) -> String {
    let name = TerminalText.escape(test.name)
    switch test.status {
    case .passed:
      return "  " + style.green(style.check) + " " + name + " " + style.dim("(" + Self.duration(test.durationMs) + ")")
        + "\n"
    case .failed:
      var line =
        "  " + style.red(style.cross) + " " + name + " " + style.dim("(" + Self.duration(test.durationMs) + ")")
      if let failure = test.failure, failure.kind == .backend {
        line += " " + style.red("error" + (failure.errorCode.map { ": " + $0 } ?? ""))
      }
      return line + "\n"
    case .skipped:
      return "  " + style.yellow("-") + " " + name + " "
        + style.dim("(skipped: " + TerminalText.escape(test.skipReason ?? "skipped") + ")") + "\n"
    }
  }

  /// The failure in the caret style, followed by a blank line.
  package func failure(_ test: TestResult) -> String? {
    test.failure.map { renderer.render($0.diagnostic) + "\n" }
  }

  package func diagnostics(_ diagnostics: [Diagnostic]) -> String {
    diagnostics.map { renderer.render($0) + "\n" }.joined()
  }

  package func summary(_ result: RunResult) -> String {
    let text = result.summaryLine
    return (result.failed > 0 ? style.red(text) : style.green(text)) + "\n"
  }

  /// `12 ms`, `1.5 s`.
  package static func duration(_ ms: Double) -> String {
    if ms < 1000 { return "\(Int(ms.rounded())) ms" }
    let tenths = (ms / 100).rounded() / 10
    return "\(tenths) s"
  }
}
