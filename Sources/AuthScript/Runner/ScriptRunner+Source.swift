import AuthCore
import Essentials
import ShellKit

extension ScriptRunner {
  /// Runs one script in an existing session: `authsh < file`, `echo whoami | authsh`, and the
  /// shell's `source FILE`. Every command prints its human output as in the shell; test lines and
  /// the closing line appear only when the script has `test` blocks. Returns 0, 1, 2 or 3 as `run`.
  ///
  /// `name` is shown in messages and, unless it starts with `<` (`<stdin>`), is the path includes
  /// resolve against.
  /// Piped input up to a line that is just `quit` or `exit`, which ends it (as psql, redis-cli
  /// and sqlite3 read their input); the rest is not read.
  package static func untilQuit(_ text: String) -> String {
    var kept: [Substring] = []
    // Lines end at \n or \r\n (one Character in Swift).
    for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      let word = line.trimmingSpaces
      if word == "quit" || word == "exit" { break }
      kept.append(line)
    }
    return kept.joined(separator: "\n")
  }

  package static func runSource(
    text: String, name: String, context: ShellContext, output: any OutputSink, style: Style = .plain,
    variables: [String: String] = [:], executor: CommandExecutor = .standard,
    readFile: @escaping ScriptLoader.ReadFile = ScriptLoader.readFromDisk
  ) async -> Int32 {
    let started = ContinuousClock.now
    let sink = RedactingSink(output, redactor: context.redactor)
    let console = ConsoleReporter(style: style, redactor: context.redactor)
    let file = SourceFile(name: name, path: name.hasPrefix("<") ? nil : name, text: text)
    let (program, loadDiagnostics) = ScriptLoader(readFile: readFile).load(file)
    program.literalSecrets.forEach(context.redactor.register)
    let environment = context.environment.isEmpty ? ProcessInfo.processInfo.environment : context.environment
    let scriptVariables = RunOptions.scriptVariables(variables, environment: environment)
    let checked = Checker(predefined: Set(scriptVariables.keys), environment: environment).checkAndParse(program)
    let diagnostics = Diagnostic.sorted(loadDiagnostics + checked.diagnostics)
    guard diagnostics.isEmpty else {
      sink.err(console.diagnostics(diagnostics))
      sink.err("\(diagnostics.count) error\(diagnostics.count == 1 ? "" : "s"); nothing was run\n")
      return 2
    }
    let hasTests = program.statements.contains { if case .test = $0.kind { return true } else { return false } }
    let rendersCommands = executor.render != nil
    let events = InterpreterEvents(
      testFinished: { test in
        if hasTests { sink.out(console.line(for: test)) }
        guard let failure = test.failure else { return }
        // The renderer already printed a failed command's error; carets add nothing there.
        let printed = rendersCommands && (failure.kind == .command || failure.kind == .backend)
        if !printed, let text = console.failure(test) { sink.err(text) }
      },
      output: { text, stream in sink.write(text, to: stream) },
      revealing: { text, stream, values in RedactingSink.revealing(values, in: sink).write(text, to: stream) })
    let interpreter = Interpreter(
      program: program, context: context, executor: executor, mode: .transcript, style: style,
      variables: scriptVariables, events: events, parsed: checked.parsed)
    let tests = await interpreter.run()
    let elapsed = started.duration(to: .now)
    let run = RunResult(
      files: [FileResult(file: name, tests: tests, durationMs: milliseconds(elapsed))],
      durationMs: milliseconds(elapsed))
    if hasTests { sink.out("\n" + console.summary(run)) }
    // Without tests the input is a list of commands: end as a one-shot command with that
    // failure would (4 for "not signed in" / "session expired", 64 for a usage error such as a
    // change that needs --yes, 78 for a configuration that names no backend).
    if !hasTests, run.exitCode == 1, let failure = tests.lazy.compactMap(\.failure).first, failure.kind == .command,
      let code = failure.errorCode.flatMap(ErrorCode.init(rawValue:))
    {
      switch code {
      case .notAuthenticated, .sessionExpired: return ExitStatus.notSignedIn
      case .usage: return ExitStatus.usage
      case .configError: return ExitStatus.configuration
      default: break
      }
    }
    return run.exitCode
  }
}
