import ShellKit

/// Why a test failed, as data (reports consume this, hurl `runner/result.rs` style).
package struct TestFailure: Sendable, Hashable {
  package enum Kind: String, Sendable, Hashable {
    /// A command failed and no `expect error` followed.
    case command
    /// The backend could not be reached or answered badly (network, timeout, 5xx, malformed): exit 3.
    case backend
    /// `assert` or `expect` did not hold.
    case assertion
    /// A variable had no value, or a line did not fit the table once its holes were filled.
    case runtime
  }

  package var kind: Kind
  package var diagnostic: Diagnostic
  /// The command's error code, when a command failed.
  package var errorCode: String?
  /// Typed `actual`/`expected` of an assertion (`string <a@example.com>`).
  package var actual: String?
  package var expected: String?

  package init(
    kind: Kind, diagnostic: Diagnostic, errorCode: String? = nil, actual: String? = nil, expected: String? = nil
  ) {
    self.kind = kind
    self.diagnostic = diagnostic
    self.errorCode = errorCode
    self.actual = actual
    self.expected = expected
  }
}

package enum TestStatus: String, Sendable, Hashable {
  case passed, failed, skipped
}

/// One `test` block (or the whole file when it has none).
package struct TestResult: Sendable, Hashable {
  package var name: String
  /// The line of the `test` statement (1 for a file without tests).
  package var line: Int
  package var status: TestStatus
  package var durationMs: Double
  package var failure: TestFailure?
  /// Why it was skipped (`--fail-fast`, setup failed).
  package var skipReason: String?
  /// Commands and assertions that ran.
  package var steps: Int

  package init(
    name: String, line: Int, status: TestStatus, durationMs: Double = 0, failure: TestFailure? = nil,
    skipReason: String? = nil, steps: Int = 0
  ) {
    self.name = name
    self.line = line
    self.status = status
    self.durationMs = durationMs
    self.failure = failure
    self.skipReason = skipReason
    self.steps = steps
  }
}

/// One `.auth` file: its tests, or the diagnostics that stopped it before anything ran.
package struct FileResult: Sendable, Hashable {
  /// As the user named it; a `--data` row's run adds `[row N]`.
  package var file: String
  /// The file's path as the user named it, without a row (JUnit `file=`, TAP `file:`).
  package var path: String
  package var tests: [TestResult]
  package var durationMs: Double
  /// Parse and check errors (then `tests` is empty and nothing was sent).
  package var diagnostics: [Diagnostic]
  /// Epoch seconds when the file started (JUnit `timestamp`).
  package var startedAt: Double

  package init(
    file: String, path: String? = nil, tests: [TestResult] = [], durationMs: Double = 0,
    diagnostics: [Diagnostic] = [], startedAt: Double = 0
  ) {
    self.file = file
    self.path = path ?? file
    self.tests = tests
    self.durationMs = durationMs
    self.diagnostics = diagnostics
    self.startedAt = startedAt
  }

  package var passed: Int { tests.filter { $0.status == .passed }.count }
  package var failed: Int { tests.filter { $0.status == .failed }.count }
  package var skipped: Int { tests.filter { $0.status == .skipped }.count }
  /// Failures caused by the backend (JUnit `<error>`), a subset of `failed`.
  package var errors: Int { tests.filter { $0.failure?.kind == .backend }.count }
}

/// The whole run, and the exit code it ends with.
package struct RunResult: Sendable, Hashable {
  package var files: [FileResult]
  package var durationMs: Double
  /// Stopped by Ctrl-C or SIGTERM: the tests left were skipped.
  package var interrupted = false

  package init(files: [FileResult], durationMs: Double) {
    self.files = files
    self.durationMs = durationMs
  }

  package var passed: Int { files.reduce(0) { $0 + $1.passed } }
  package var failed: Int { files.reduce(0) { $0 + $1.failed } }
  package var skipped: Int { files.reduce(0) { $0 + $1.skipped } }
  package var errors: Int { files.reduce(0) { $0 + $1.errors } }

  /// 2 when any file had parse/check errors (nothing was sent); else 3 when a test failed because
  /// the backend was unreachable, timed out, answered 5xx or malformed data (and no `expect error`
  /// named that code), even when other tests failed too: an outage makes the run inconclusive
  /// (later failures are often its echoes), so CI should retry rather than report a regression;
  /// else 1 when any test failed; else 0. Interrupted: 130, whatever ran (the process exits so, and
  /// a report read by CI must not say the run passed).
  package var exitCode: Int32 {
    if interrupted { return ExitStatus.interrupted }
    if files.contains(where: { !$0.diagnostics.isEmpty }) { return 2 }
    if errors > 0 { return 3 }
    if failed > 0 { return 1 }
    return 0
  }

  /// `3 passed, 1 failed` (` (1 error)` when backend failures are among the failed, `, 2 skipped`
  /// when any): the closing line CI greps.
  package var summaryLine: String {
    var line = "\(passed) passed, \(failed) failed"
    if errors > 0 { line += " (\(errors) error\(errors == 1 ? "" : "s"))" }
    if skipped > 0 { line += ", \(skipped) skipped" }
    return line
  }
}
