import AuthCore
import JSONKit
import ShellKit

/// Runs one checked program statement by statement through a `CommandExecutor`, in one session
/// (`ShellContext`). Tests run to the next `test` line; after a failure the rest of that test is
/// skipped and the next one starts with the session as it is.
package final class Interpreter {
  package enum Mode: Sendable {
    /// `authsh run`: one line per test; commands print nothing but `echo`/`help` text.
    case tests
    /// `authsh < file`, `source FILE`: every command prints its human output, like the shell.
    case transcript
  }

  let program: Program
  let context: ShellContext
  let executor: CommandExecutor
  let mode: Mode
  let style: Style
  let events: InterpreterEvents
  let stop: StopFlag?
  /// Set by Ctrl-C / SIGTERM (`authsh run`): the tests left are skipped, `cleanup` still runs.
  let interrupt: StopFlag?
  let failFast: Bool
  var scope: Scope
  var previousResult: CommandResult?
  /// When `previousResult` finished (its `expires_in` is computed from then).
  var previousNow = 0
  /// Whether `scope.previous` still shows an older result (the JSON is built only when read).
  var previousIsStale = false
  /// The failure of the previous command when it was an outage (network, timeout, 5xx, malformed)
  /// that the `expect` after it does not name: any check of that result fails as this error.
  var unexpectedBackendFailure: TestFailure?
  /// Each command line's last words and what they parsed to, by statement index: a line run
  /// again (a loop, a data row, the same values) is not parsed again.
  var parsedLines: ParsedCommands

  package init(
    program: Program, context: ShellContext, executor: CommandExecutor, mode: Mode = .tests, style: Style = .plain,
    variables: [String: JSON] = [:], events: InterpreterEvents = InterpreterEvents(), stop: StopFlag? = nil,
    failFast: Bool = false, interrupt: StopFlag? = nil, parsed: ParsedCommands = [:]
  ) {
    self.parsedLines = parsed
    self.program = program
    self.context = context
    self.executor = executor
    self.mode = mode
    self.style = style
    self.events = events
    self.stop = stop
    self.failFast = failFast
    self.interrupt = interrupt
    let clock = context.clock
    self.scope = Scope(variables: variables, environment: context.environment, previous: nil, now: { clock.unixNow })
    self.scope.redactor = context.redactor
  }

  /// A planned test: its statements `body`, the `test` line, and its name template.
  struct Segment {
    var name: Template?
    var line: Int
    var body: Range<Int>
    var isSetup: Bool
    var isCleanup = false
  }

  /// The tests in file order, then the `cleanup` blocks (each runs from its `cleanup` line to the
  /// next `test` or `cleanup` line, or the end).
  var segments: [Segment] {
    let statements = program.statements
    let starts = statements.indices.filter {
      switch statements[$0].kind {
      case .test, .cleanup: return true
      default: return false
      }
    }
    var result: [Segment] = []
    var cleanups: [Segment] = []
    let firstTest = starts.first { if case .test = statements[$0].kind { return true } else { return false } }
    if firstTest == nil {
      // No `test` lines: the file (up to its first `cleanup`) is one test named after the file.
      result.append(Segment(name: nil, line: 1, body: 0..<(starts.first ?? statements.count), isSetup: false))
    } else if let first = starts.first, first > 0 {
      result.append(Segment(name: nil, line: statements[0].range.start.line, body: 0..<first, isSetup: true))
    }
    for (position, start) in starts.enumerated() {
      let end = position + 1 < starts.count ? starts[position + 1] : statements.count
      let line = statements[start].range.start.line
      switch statements[start].kind {
      case .test(let name): result.append(Segment(name: name, line: line, body: (start + 1)..<end, isSetup: false))
      case .cleanup:
        cleanups.append(Segment(name: nil, line: line, body: (start + 1)..<end, isSetup: false, isCleanup: true))
      default: continue
      }
    }
    return result + cleanups
  }

  /// The tests a file would report, without running it (for files skipped by `--fail-fast`).
  package func plannedTests(reason: String) -> [TestResult] {
    segments.filter { !$0.isSetup && !$0.isCleanup }.map { segment in
      TestResult(name: staticName(segment), line: segment.line, status: .skipped, skipReason: reason)
    }
  }

  func staticName(_ segment: Segment) -> String {
    if segment.isCleanup { return "cleanup" }
    guard let name = segment.name else { return segment.isSetup ? "setup" : program.main.file.baseName }
    return name.parts.map { part -> String in
      switch part {
      case .text(let text): return text
      case .variable(let ref): return "{{\(ref.name)}}"
      }
    }.joined()
  }

  /// Runs every test; reports each through `events` as it finishes and returns them all.
  package func run() async -> [TestResult] {
    var results: [TestResult] = []
    var skipReason: String?
    let all = segments
    for segment in all where !segment.isCleanup {
      if skipReason == nil, interrupt?.isSet == true { skipReason = "interrupted" }
      if skipReason == nil, stop?.isSet == true { skipReason = "stopped by --fail-fast" }
      if let reason = skipReason {
        guard !segment.isSetup else { continue }
        let skipped = TestResult(name: staticName(segment), line: segment.line, status: .skipped, skipReason: reason)
        results.append(skipped)
        events.testFinished(skipped)
        continue
      }
      let result = await runSegment(segment)
      if segment.isSetup, result.status == .passed { continue }
      results.append(result)
      events.testFinished(result)
      if result.status == .failed {
        if failFast { stop?.set() }
        if segment.isSetup { skipReason = "setup failed" }
      }
    }
    // Whatever happened above: remove what the tests made. Reported only when it fails.
    for segment in all where segment.isCleanup {
      let result = await runCleanup(segment)
      guard result.status == .failed else { continue }
      results.append(result)
      events.testFinished(result)
    }
    return results
  }

  /// Every line of a `cleanup` block runs, even after one failed (the first failure is reported);
  /// changes there need no `--yes`: the script's author wrote them to be made.
  func runCleanup(_ segment: Segment) async -> TestResult {
    let started = ContinuousClock.now
    let confirmed = context.confirmedByScript
    context.confirmedByScript = true
    defer { context.confirmedByScript = confirmed }
    var failure: TestFailure?
    var steps = 0
    for index in segment.body {
      let problem = await execute(at: index)
      steps += 1
      if failure == nil { failure = problem }
    }
    let elapsed = ContinuousClock.now - started
    let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    return TestResult(
      name: "cleanup", line: segment.line, status: failure == nil ? .passed : .failed, durationMs: ms, failure: failure,
      steps: steps)
  }

  func runSegment(_ segment: Segment) async -> TestResult {
    let started = ContinuousClock.now
    var name = staticName(segment)
    var failure: TestFailure?
    if let template = segment.name {
      do { name = try scope.render(template) } catch {
        failure = runtimeFailure(error, in: program.statements[segment.body.lowerBound - 1])
      }
    }
    var steps = 0
    var index = segment.body.lowerBound
    while failure == nil, index < segment.body.upperBound, interrupt?.isSet != true {
      failure = await execute(at: index)
      steps += 1
      index += 1
    }
    for later in index..<segment.body.upperBound {
      switch program.statements[later].kind {
      case .assign(let name, _, _), .capture(let name, _): scope.skippedDefinitions[name.text] = name.range.start.line
      default: break
      }
    }
    let elapsed = ContinuousClock.now - started
    let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    if failure == nil, index < segment.body.upperBound {
      // Interrupted before its last line: neither passed nor failed.
      return TestResult(
        name: name, line: segment.line, status: .skipped, durationMs: ms, skipReason: "interrupted", steps: steps)
    }
    return TestResult(
      name: name, line: segment.line, status: failure == nil ? .passed : .failed, durationMs: ms, failure: failure,
      steps: steps)
  }

  func execute(at index: Int) async -> TestFailure? {
    let statement = program.statements[index]
    if previousIsStale, readsPreviousResult(statement.kind) {
      scope.previous = previousResult?.json(now: previousNow, revealTokens: true, includeClaims: true)
      previousIsStale = false
    }
    switch statement.kind {
    case .command(let command):
      return await runCommand(command, statement: statement, index: index)
    case .expectOK(let range):
      return escalated(checkExpectOK(range, statement: statement), statement: statement)
    case .expectError(let code):
      return escalated(checkExpectError(code, statement: statement), statement: statement)
    case .assert(let assertion):
      return escalated(checkAssertion(assertion, statement: statement), statement: statement)
    case .capture(let name, let query):
      guard let previous = scope.previous else { return noPrevious(statement) }
      guard let value = Values.lookup(query.segments, in: previous) else {
        let diagnostic = Diagnostic(
          "nothing to capture", file: statement.file, range: query.range,
          note: "the result of '\(previousResult?.command ?? "the previous command")' has no \(query.text)")
        return escalated(TestFailure(kind: .runtime, diagnostic: diagnostic), statement: statement)
      }
      scope.variables[name.text] = value
      scope.skippedDefinitions[name.text] = nil
      return nil
    case .assign(let name, let value, let secret):
      do {
        let resolved = try scope.evaluate(value)
        if secret { context.redactor.registerDeclared(Values.text(resolved)) }
        scope.variables[name.text] = resolved
        scope.skippedDefinitions[name.text] = nil
        return nil
      } catch {
        return runtimeFailure(error, in: statement)
      }
    case .test, .include, .cleanup:
      return nil
    }
  }

  /// Whether a statement looks at the previous result (a query, or a `{{user.id}}`-style hole).
  func readsPreviousResult(_ kind: StatementKind) -> Bool {
    func holes(_ templates: [Template]) -> Bool {
      templates.contains {
        $0.variables.contains { QuerySchema.root[$0.root] != nil && scope.variables[$0.root] == nil }
      }
    }
    switch kind {
    case .assert, .capture: return true
    case .command(let command): return holes(command.templates)
    case .assign(_, let value, _):
      if case .template(let template) = value.kind { return holes([template]) }
      return false
    case .test(let name): return holes([name])
    case .expectOK, .expectError, .include, .cleanup: return false
    }
  }

  /// Gives a secret to the redactor once.
  func register(_ secret: String?) {
    context.redactor.register(secret)
  }

  func runtimeFailure(_ error: UnresolvedVariable, in statement: Statement) -> TestFailure {
    TestFailure(
      kind: .runtime, diagnostic: Diagnostic(error.title, file: statement.file, range: error.range, note: error.note))
  }

  func noPrevious(_ statement: Statement) -> TestFailure {
    TestFailure(
      kind: .runtime,
      diagnostic: Diagnostic("no command ran before this line", file: statement.file, range: statement.keywordRange))
  }
}
