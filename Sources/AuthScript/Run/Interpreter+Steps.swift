import AuthCore
import JSONKit
import ShellKit

extension Interpreter {
  /// Fills the holes, matches the line against the table again (choices are known now), registers
  /// every secret value it carries, runs it, and keeps the result for `expect`, `assert` and holes.
  func runCommand(_ command: CommandStatement, statement: Statement, index: Int) async -> TestFailure? {
    var words: [Word] = []
    for (token, template) in zip(command.tokens, command.templates) {
      do {
        let text = try scope.render(template)
        words.append(
          Word(text: text, start: token.range.start.column - 1, end: token.range.end.column - 1, quoted: token.quoted))
      } catch {
        return runtimeFailure(error, in: statement)
      }
    }
    if let help = HelpRequest.command(in: words) {
      // `login --help`: the command's help, as on the command line and in the shell.
      words = (["help"] + help).map { Word(text: $0, start: 0, end: 0) }
    }
    let parsed: Result<Invocation, UsageError>
    if let known = parsedLines[index], known.words == words {
      parsed = known.parsed
    } else {
      parsed = InvocationParser.parse(words, surface: .script)
      parsedLines[index] = ParsedCommand(words: words, parsed: parsed)
    }
    let invocation: Invocation
    switch parsed {
    case .success(let parsed): invocation = parsed.withOutputDefaults(context.outputDefaults)
    case .failure(let usage):
      let token = usage.wordIndex.flatMap { command.tokens.indices.contains($0) ? command.tokens[$0] : nil }
      let diagnostic = Diagnostic(
        usage.message, file: statement.file, range: token?.range ?? statement.range,
        note: usage.suggestion.map { "did you mean '\($0)'?" })
      return TestFailure(kind: .runtime, diagnostic: diagnostic)
    }
    registerSecrets(of: invocation)
    let result = await executor.run(invocation, context)
    register(result.session?.accessToken)
    register(result.session?.refreshToken)
    result.payload(as: InboxOutput.self)?.message.secretValues.forEach(register)
    guard invocation.spec.producesResult || previousResult == nil else {
      // `echo`, `sleep`, `help`: the previous command's result stays what `expect` and `assert`
      // check; only its `output` becomes the text just printed.
      if let output = result.output {
        previousResult?.output = output
        previousIsStale = true
      }
      show(result, invocation: invocation, now: context.clock.unixNow)
      guard let error = result.error else { return nil }
      return commandFailure(error, invocation: invocation, command: command, statement: statement)
    }
    previousResult = result
    let now = context.clock.unixNow
    previousNow = now
    previousIsStale = true
    show(result, invocation: invocation, now: now)
    unexpectedBackendFailure = nil
    guard let error = result.error else { return nil }
    let failure = commandFailure(error, invocation: invocation, command: command, statement: statement)
    guard let expect = handlingExpect(after: index) else { return failure }
    // An outage the script did not ask for is an error, whatever the `expect` or `assert` says.
    if error.isBackendFailure, expect != error.code.rawValue { unexpectedBackendFailure = failure }
    return nil
  }

  func registerSecrets(of invocation: Invocation) {
    for (name, values) in invocation.flags where CommandTable.secretFlagNames.contains(name) {
      values.map(\.text).forEach(register)
    }
    for argument in invocation.spec.arguments where argument.isSecret {
      register(invocation.arguments[argument.name]?.text)
    }
    if invocation.given(.passwordEnv), let variable = invocation[.passwordEnv] {
      register(context.environment[variable])
    }
    for key in [FlagKey.mfaCodeEnv, FlagKey.totpSecretEnv] where invocation.given(key) {
      if let variable = invocation[key] { register(context.environment[variable]) }
    }
  }

  func show(_ result: CommandResult, invocation: Invocation, now: Int) {
    switch mode {
    case .tests:
      if let output = result.output, result.ok {
        events.output(output.hasSuffix("\n") || output.isEmpty ? output : output + "\n", .standardOutput)
      }
    case .transcript:
      if let render = executor.render {
        let (out, err) = render(result, invocation, style, now)
        // `--show-tokens`: what the redactor would mask is the point of the output.
        let values = ResultText.revealed(result, invocation: invocation)
        let events = self.events
        let write: (String, ShellKit.OutputStream) -> Void = { text, stream in
          if !values.isEmpty, let revealing = events.revealing {
            revealing(text, stream, values)
          } else {
            events.output(text, stream)
          }
        }
        if !out.isEmpty { write(out, .standardOutput) }
        if !err.isEmpty { write(err, .standardError) }
      } else if let output = result.output {
        events.output(output + "\n", .standardOutput)
      }
    }
  }

  /// The `expect` before the next command (or test), which takes responsibility for a failed
  /// command: `"ok"` for `expect ok`, else the expected error code; nil when there is none.
  func handlingExpect(after index: Int) -> String? {
    var next = index + 1
    while next < program.statements.count {
      switch program.statements[next].kind {
      case .expectOK: return "ok"
      case .expectError(let code): return code.text
      case .command(let command) where !Self.producesResult(command): next += 1
      case .command, .test, .cleanup: return nil
      default: next += 1
      }
    }
    return nil
  }

  /// Whether a command line gives a result (`echo`, `sleep` and `help` do not), by its first words.
  static func producesResult(_ command: CommandStatement) -> Bool {
    CommandTable.match(command.tokens.map(\.text))?.spec.producesResult ?? true
  }

  /// A check (`expect`, `assert`, `capture`) that did not hold on the result of a command that hit
  /// an outage the script did not expect becomes that command's backend error (JUnit `<error>`,
  /// exit 3), with the check that could not hold as a note.
  func escalated(_ failure: TestFailure?, statement: Statement) -> TestFailure? {
    guard let failure, failure.kind != .backend, var outage = unexpectedBackendFailure else { return failure }
    let line = failure.diagnostic.range?.start.line ?? statement.range.start.line
    let place =
      failure.diagnostic.fileName == outage.diagnostic.fileName ? "line \(line)" : "\(statement.file.name):\(line)"
    var note = "\(place): \(failure.diagnostic.title)"
    if let expected = failure.expected { note += ", expected " + expected }
    outage.diagnostic.notes.append(note)
    outage.expected = failure.expected ?? outage.expected
    return outage
  }

  func commandFailure(_ error: AuthError, invocation: Invocation, command: CommandStatement, statement: Statement)
    -> TestFailure
  {
    let wordCount = max(1, invocation.spec.words.count)
    let words = command.tokens.prefix(wordCount)
    let range = words.first.map { first in first.range.union(words.last?.range ?? first.range) } ?? statement.range
    var notes: [String] = error.fields.map { "\($0.field.rawValue): \($0.message)" }
    if let providerCode = error.providerCode {
      notes.append("backend: " + providerCode + (error.status.map { " (HTTP \($0))" } ?? ""))
    } else if let status = error.status {
      notes.append("backend: HTTP \(status)")
    }
    if let hint = error.hint { notes.append(hint) }
    let diagnostic = Diagnostic(
      "'\(invocation.spec.name)' failed: \(error.code.rawValue)", file: statement.file, range: range,
      note: error.message,
      notes: notes)
    return TestFailure(
      kind: error.isBackendFailure ? .backend : .command, diagnostic: diagnostic, errorCode: error.code.rawValue,
      actual: "error <\(error.code.rawValue)>", expected: "ok")
  }

  func checkExpectOK(_ range: SourceRange, statement: Statement) -> TestFailure? {
    guard let previous = previousResult else { return noPrevious(statement) }
    guard let error = previous.error else { return nil }
    let actual = "error <\(error.code.rawValue)> \(error.message)"
    return assertionFailure(statement, range: range, actual: actual, expected: "ok", code: error.code.rawValue)
  }

  func checkExpectError(_ code: Name, statement: Statement) -> TestFailure? {
    guard let previous = previousResult else { return noPrevious(statement) }
    let expected = "error <\(code.text)>"
    guard let error = previous.error else {
      return assertionFailure(statement, range: code.range, actual: "ok", expected: expected, code: nil)
    }
    guard error.code.rawValue != code.text else { return nil }
    let actual = "error <\(error.code.rawValue)> \(error.message)"
    return assertionFailure(statement, range: code.range, actual: actual, expected: expected, code: error.code.rawValue)
  }

  func checkAssertion(_ assertion: Assertion, statement: Statement) -> TestFailure? {
    guard let previous = scope.previous else { return noPrevious(statement) }
    let actual = Values.lookup(assertion.query.segments, in: previous)
    var expected: JSON?
    if let expression = assertion.expected {
      do { expected = try scope.evaluate(expression) } catch { return runtimeFailure(error, in: statement) }
    }
    let outcome = AssertionEvaluator.evaluate(
      assertion.predicate, negated: assertion.negated, actual: actual, expected: expected)
    guard !outcome.passed else { return nil }
    let expectation = AssertionEvaluator.describeExpectation(
      assertion.predicate, negated: assertion.negated, expected: expected)
    var failure = assertionFailure(
      statement, range: assertion.query.range, actual: Values.typed(actual), expected: expectation, code: nil)
    if let problem = outcome.problem, problem != "no value" { failure.diagnostic.notes.append(problem) }
    return failure
  }

  func assertionFailure(_ statement: Statement, range: SourceRange, actual: String, expected: String, code: String?)
    -> TestFailure
  {
    let diagnostic = Diagnostic(
      "assertion failed", file: statement.file, range: range, note: "actual:   " + actual,
      notes: ["expected: " + expected])
    return TestFailure(kind: .assertion, diagnostic: diagnostic, errorCode: code, actual: actual, expected: expected)
  }
}
