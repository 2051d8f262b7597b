import AuthCore
import Essentials

/// JUnit XML as CI servers read it: `<testsuites>` → one `<testsuite>` per file → one `<testcase>`
/// per test, with `tests`/`failures`/`errors`/`skipped`/`time` counts. The failure body is the same
/// caret text the terminal shows. Backend failures (exit 3) are `<error>`, the rest `<failure>`;
/// a file that did not parse or check is one `<testcase name="check">` with an `<error>`.
package enum JUnitReport {
  package static func render(_ run: RunResult, renderer: DiagnosticRenderer) -> String {
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    let checkErrors = run.files.filter { !$0.diagnostics.isEmpty }.count
    xml +=
      "<testsuites name=\"authsh\""
      + counts(
        tests: run.passed + run.failed + run.skipped + checkErrors, failures: run.failed - run.errors,
        errors: run.errors + checkErrors, skipped: run.skipped, ms: run.durationMs) + ">\n"
    for file in run.files {
      xml += suite(file, renderer: renderer)
    }
    xml += "</testsuites>\n"
    return xml
  }

  static func suite(_ file: FileResult, renderer: DiagnosticRenderer) -> String {
    let name = escape(file.file)
    let path = escape(file.path)
    let stamp = timestamp(file.startedAt)
    if !file.diagnostics.isEmpty {
      let text = renderer.render(file.diagnostics)
      let title = "\(file.diagnostics.count) problem\(file.diagnostics.count == 1 ? "" : "s"); nothing was run"
      return "  <testsuite name=\"\(name)\"" + counts(tests: 1, failures: 0, errors: 1, skipped: 0, ms: 0)
        + " timestamp=\"\(stamp)\">\n"
        + "    <testcase name=\"check\" classname=\"\(name)\" time=\"0.000\" file=\"\(path)\">\n"
        + "      <error message=\"\(escape(title))\" type=\"check\">\(escape(text))</error>\n"
        + "    </testcase>\n  </testsuite>\n"
    }
    var xml =
      "  <testsuite name=\"\(name)\""
      + counts(
        tests: file.tests.count, failures: file.failed - file.errors, errors: file.errors, skipped: file.skipped,
        ms: file.durationMs) + " timestamp=\"\(stamp)\">\n"
    for test in file.tests {
      let open =
        "    <testcase name=\"\(escape(test.name))\" classname=\"\(name)\" time=\"\(seconds(test.durationMs))\""
        + " file=\"\(path)\" line=\"\(test.line)\""
      switch test.status {
      case .passed:
        xml += open + "/>\n"
      case .skipped:
        xml += open + ">\n      <skipped message=\"\(escape(test.skipReason ?? "skipped"))\"/>\n    </testcase>\n"
      case .failed:
        let failure = test.failure
        let element = failure?.kind == .backend ? "error" : "failure"
        let message = escape(failure?.diagnostic.title ?? "failed")
        let body = escape(failure.map { renderer.render($0.diagnostic) } ?? "")
        let type = failure?.kind.rawValue ?? "failure"
        xml +=
          open + ">\n      <\(element) message=\"\(message)\" type=\"\(type)\">\(body)</\(element)>\n    </testcase>\n"
      }
    }
    return xml + "  </testsuite>\n"
  }

  static func counts(tests: Int, failures: Int, errors: Int, skipped: Int, ms: Double) -> String {
    " tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(seconds(ms))\""
  }

  static func seconds(_ ms: Double) -> String { NumberText.fixed(max(0, ms) / 1000, places: 3) }

  static func timestamp(_ epoch: Double) -> String {
    String(CivilTime.iso8601(seconds: Int(epoch.rounded(.down))).dropLast())
  }

  /// Escapes markup and drops characters XML 1.0 cannot carry (control characters, colour codes).
  package static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
      default:
        let value = scalar.value
        let allowed = (value >= 0x20 && value <= 0xD7FF) || (value >= 0xE000 && value <= 0xFFFD) || value >= 0x10000
        if allowed { out.unicodeScalars.append(scalar) }
      }
    }
    return out
  }
}
