import Essentials
import JSONKit

/// TAP version 13: one test point per test (`file: name`), YAML diagnostics under failures, `# SKIP`
/// for skipped tests, `# error` (and `severity: "error"`) after a test the backend failed rather than
/// the test itself; a file that did not parse or check is one `not ok` point.
package enum TAPReport {
  package static func render(_ run: RunResult, renderer: DiagnosticRenderer) -> String {
    let points = run.files.reduce(0) { $0 + ($1.diagnostics.isEmpty ? $1.tests.count : 1) }
    var tap = "TAP version 13\n1..\(points)\n"
    var number = 0
    for file in run.files {
      if !file.diagnostics.isEmpty {
        number += 1
        tap += "not ok \(number) - \(description(file.file + ": check"))\n"
        tap += yaml(
          [
            ("message", .string("\(file.diagnostics.count) problem(s); nothing was run")), ("severity", "fail"),
            ("file", .string(file.path)),
          ], rendered: renderer.render(file.diagnostics))
        continue
      }
      for test in file.tests {
        number += 1
        let text = description(file.path + ": " + test.name)  // a --data row is in the test's name
        switch test.status {
        case .passed:
          tap += "ok \(number) - \(text)\n"
        case .skipped:
          tap += "ok \(number) - \(text) # SKIP \(directive(test.skipReason ?? "skipped"))\n"
        case .failed:
          let isError = test.failure?.kind == .backend
          tap += "not ok \(number) - \(text)" + (isError ? " # error" : "") + "\n"
          var fields: [(String, JSON)] = [
            ("message", .string(test.failure?.diagnostic.title ?? "failed")), ("severity", isError ? "error" : "fail"),
            ("file", .string(file.path)), ("line", .int(test.failure?.diagnostic.range?.start.line ?? test.line)),
            ("duration_ms", .int(Int(test.durationMs.rounded()))),
          ]
          if let failure = test.failure {
            fields.append(("kind", .string(failure.kind.rawValue)))
            if let code = failure.errorCode { fields.append(("error_code", .string(code))) }
            if let actual = failure.actual { fields.append(("actual", .string(actual))) }
            if let expected = failure.expected { fields.append(("expected", .string(expected))) }
          }
          tap += yaml(fields, rendered: test.failure.map { renderer.render($0.diagnostic) })
        }
      }
    }
    return tap
  }

  /// A YAML block; strings are JSON-quoted (valid YAML), the rendered error a literal block.
  static func yaml(_ fields: [(String, JSON)], rendered: String?) -> String {
    var out = "  ---\n"
    for (key, value) in fields { out += "  \(key): \(value.compactText)\n" }
    if let rendered {
      out += "  rendered: |\n"
      for line in rendered.split(separator: "\n", omittingEmptySubsequences: false).dropLast(
        rendered.hasSuffix("\n") ? 1 : 0)
      {
        out += "    " + line + "\n"
      }
    }
    return out + "  ...\n"
  }

  /// Test-point descriptions may not contain an unescaped `#` or a newline.
  static func description(_ text: String) -> String {
    text.replacingAll("\\", with: "\\\\").replacingAll("#", with: "\\#")
      .replacingAll("\n", with: " ")
  }

  static func directive(_ text: String) -> String { text.replacingAll("\n", with: " ") }
}
