import JSONKit

/// A machine-readable report with a stable, versioned schema (`"version": 1`; fields are only ever
/// added within a version).
package enum JSONReport {
  package static let version = 1

  package static func render(_ run: RunResult, renderer: DiagnosticRenderer) -> String {
    let files: [JSON] = run.files.map { file in
      var object = JSONObject([
        ("file", .string(file.file)), ("duration_ms", .int(Int(file.durationMs.rounded()))),
        ("passed", .int(file.passed)),
        ("failed", .int(file.failed)), ("skipped", .int(file.skipped)), ("errors", .int(file.errors)),
      ])
      object["diagnostics"] = .array(file.diagnostics.map { diagnostic($0, renderer: renderer) })
      object["tests"] = .array(file.tests.map { test($0, renderer: renderer) })
      return .object(object)
    }
    let report: JSON = [
      "version": .int(version), "tool": "authsh",
      "summary": [
        "passed": .int(run.passed), "failed": .int(run.failed), "skipped": .int(run.skipped),
        "errors": .int(run.errors),
        "duration_ms": .int(Int(run.durationMs.rounded())), "exit_code": .int(Int(run.exitCode)),
      ],
      "files": .array(files),
    ]
    return report.prettyText + "\n"
  }

  static func test(_ test: TestResult, renderer: DiagnosticRenderer) -> JSON {
    var object = JSONObject()
    object["name"] = .string(test.name)
    object["line"] = .int(test.line)
    object["status"] = .string(test.status.rawValue)
    // `status` keeps its three values (version 1 only adds); `outcome` also tells an error (the
    // backend was unreachable, timed out, answered 5xx or malformed) from a failure.
    object["outcome"] = .string(test.failure?.kind == .backend ? "error" : test.status.rawValue)
    object["duration_ms"] = .int(Int(test.durationMs.rounded()))
    object["skip_reason"] = .optional(test.skipReason)
    if let failure = test.failure {
      var details = diagnostic(failure.diagnostic, renderer: renderer).object ?? JSONObject()
      details["kind"] = .string(failure.kind.rawValue)
      details["error_code"] = .optional(failure.errorCode)
      details["actual"] = .optional(failure.actual)
      details["expected"] = .optional(failure.expected)
      object["failure"] = .object(details)
    } else {
      object["failure"] = .null
    }
    return .object(object)
  }

  static func diagnostic(_ diagnostic: Diagnostic, renderer: DiagnosticRenderer) -> JSON {
    var object = JSONObject()
    object["title"] = .string(diagnostic.title)
    object["file"] = .optional(diagnostic.fileName)
    object["line"] = diagnostic.range.map { .int($0.start.line) } ?? .null
    object["column"] = diagnostic.range.map { .int($0.start.column) } ?? .null
    object["note"] = .optional(diagnostic.note)
    object["notes"] = .array(diagnostic.notes.map(JSON.string))
    object["rendered"] = .string(renderer.render(diagnostic))
    return .object(object)
  }
}
