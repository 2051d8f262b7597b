import AuthCore
import JSONKit
import ShellKit

/// What `authsh run` was asked for.
package struct RunOptions: Sendable {
  /// Files run in parallel (statements within a file stay sequential; output stays grouped per file).
  package var jobs: Int
  /// Stop the whole run at the first failed test; what did not run is reported as skipped.
  package var failFast: Bool
  /// `--var name=value` (typed like literals: `--var n=42` is a number). Wins over `AUTHSH_VAR_name`.
  package var variables: [String: String]
  package var reportJUnit: String?
  package var reportTAP: String?
  package var reportJSON: String?
  /// Colour and marks, decided by the CLI (terminal, `NO_COLOR`, `--color`, locale).
  package var style: Style
  package var executor: CommandExecutor
  package var readFile: ScriptLoader.ReadFile
  /// `--data`: each file runs once per row, the row's columns as variables (over `--var`).
  package var data: DataTable?
  /// Set on Ctrl-C / SIGTERM: tests not yet run are skipped, `cleanup` blocks still run, exit 130.
  package var interrupt: StopFlag?

  package init(
    jobs: Int = 1, failFast: Bool = false, variables: [String: String] = [:], reportJUnit: String? = nil,
    reportTAP: String? = nil, reportJSON: String? = nil, style: Style = .plain, executor: CommandExecutor = .standard,
    readFile: @escaping ScriptLoader.ReadFile = ScriptLoader.readFromDisk, data: DataTable? = nil,
    interrupt: StopFlag? = nil
  ) {
    self.jobs = max(1, jobs)
    self.failFast = failFast
    self.variables = variables
    self.reportJUnit = reportJUnit
    self.reportTAP = reportTAP
    self.reportJSON = reportJSON
    self.style = style
    self.executor = executor
    self.readFile = readFile
    self.data = data
    self.interrupt = interrupt
  }

  /// `name=value` → (name, value); nil when there is no `=` or the name is not a valid name.
  package static func parseVariable(_ text: String) -> (name: String, value: String)? {
    guard let equals = text.firstIndex(of: "=") else { return nil }
    let name = String(text[..<equals])
    let token = Token(text: name, raw: name, quoted: false, range: SourceRange(line: 1, offsets: 0, 0))
    guard Parser.isValidName(token) else { return nil }
    return (name, String(text[text.index(after: equals)...]))
  }

  /// `AUTHSH_VAR_name` from the environment, then `--var` on top, typed like literals.
  static func scriptVariables(_ given: [String: String], environment: [String: String]) -> [String: JSON] {
    var result: [String: JSON] = [:]
    for (key, value) in environment where key.hasPrefix("AUTHSH_VAR_") && key.count > 11 {
      result[String(key.dropFirst(11))] = typed(value)
    }
    for (name, value) in given { result[name] = typed(value) }
    return result
  }

  static func typed(_ text: String) -> JSON { Parser.literal(text) ?? .string(text) }
}
