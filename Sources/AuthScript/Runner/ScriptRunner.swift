import AuthCore
import Essentials
import JSONKit
import ShellKit

/// `authsh run FILE…`: lex, parse and check every file first (any problem → report all, exit 2,
/// nothing sent), then run the files — in parallel with `--jobs N`, output grouped per file and
/// printed in file order — and close with `N passed, N failed`. Exit codes: see `RunResult.exitCode`.
package struct ScriptRunner: Sendable {
  package var options: RunOptions
  package var makeContext: @Sendable () -> ShellContext
  package var output: any OutputSink

  package init(options: RunOptions, makeContext: @escaping @Sendable () -> ShellContext, output: any OutputSink) {
    self.options = options
    self.makeContext = makeContext
    self.output = output
  }

  /// A file after loading and checking, with the session it will run in.
  struct Prepared: Sendable {
    var name: String
    var program: Program
    var context: ShellContext
    var variables: [String: JSON]
    var diagnostics: [Diagnostic]
    /// What the checker parsed each command line to (the interpreter starts from it).
    var parsed: ParsedCommands = [:]
    /// `--data`: the row this run of the file is for (its tests are named `NAME[row N]`).
    var row: Int?
  }

  package func run(files: [String]) async -> Int32 {
    let started = ContinuousClock.now
    let prepared =
      options.data.map { table in files.flatMap { file in table.rows.map { prepare(file, row: $0) } } }
      ?? files.map { prepare($0) }
    let redaction = Self.redaction(prepared.map(\.context.redactor))
    let console = ConsoleReporter(style: options.style, redactor: nil)
    let problems = prepared.flatMap(\.diagnostics)
    var results: [FileResult]
    if !problems.isEmpty {
      let renderer = DiagnosticRenderer(style: options.style, redaction: redaction)
      output.err(problems.map { renderer.render($0) + "\n" }.joined())
      output.err("\(problems.count) error\(problems.count == 1 ? "" : "s"); nothing was run\n")
      results = prepared.map {
        FileResult(file: $0.name, diagnostics: $0.diagnostics, startedAt: Date().timeIntervalSince1970)
      }
    } else {
      results = await runAll(prepared)
    }
    let elapsed = started.duration(to: .now)
    var run = RunResult(files: results, durationMs: Self.milliseconds(elapsed))
    run.interrupted = options.interrupt?.isSet == true
    if problems.isEmpty { output.out("\n" + console.summary(run)) }
    let code = writeReports(run, redaction: redaction)
    return options.interrupt?.isSet == true ? ExitStatus.interrupted : code
  }

  func prepare(_ path: String, row: DataTable.Row? = nil) -> Prepared {
    let context = makeContext()
    if context.environment.isEmpty { context.environment = ProcessInfo.processInfo.environment }
    var variables = RunOptions.scriptVariables(options.variables, environment: context.environment)
    if let row { variables.merge(row.variables) { _, column in column } }
    let text: String
    do {
      // Not read at all: a line of a .env or a key file would come back in a diagnostic and the report.
      guard path.hasSuffix(".auth") else { throw NotAScript() }
      text = try options.readFile(path)
    } catch {
      let diagnostic =
        error is NotAScript
        ? Diagnostic(
          "'\(path)' is not an .auth script", note: "only .auth files are run, and other files are not read")
        : Diagnostic("cannot read '\(path)'", note: ScriptReadError.reason(of: error))
      let empty = Program(
        main: Script(file: SourceFile(name: path, path: path, text: ""), statements: []), statements: [])
      return Prepared(
        name: path, program: empty, context: context, variables: variables, diagnostics: [diagnostic], row: row?.number)
    }
    let file = SourceFile(name: path, path: path, text: text)
    let loader = ScriptLoader(readFile: options.readFile)
    let (program, loadDiagnostics) = loader.load(file)
    // Before any diagnostic is rendered: a check error shows its line, `--password "…"` included.
    program.literalSecrets.forEach(context.redactor.register)
    let checker = Checker(predefined: Set(variables.keys), environment: context.environment)
    let checked = checker.checkAndParse(program)
    return Prepared(
      name: path, program: program, context: context, variables: variables,
      diagnostics: Diagnostic.sorted(loadDiagnostics + checked.diagnostics), parsed: checked.parsed, row: row?.number)
  }

  /// Runs files `jobs` at a time; each file's output is captured and printed whole, in file order
  /// (with one job it streams as it happens).
  func runAll(_ files: [Prepared]) async -> [FileResult] {
    let stop = StopFlag()
    if options.jobs == 1 {
      var results: [FileResult] = []
      for file in files { results.append(await runFile(file, stop: stop, sink: output)) }
      return results
    }
    return await withTaskGroup(of: (Int, FileResult, CapturingSink).self) { group in
      var results = [FileResult?](repeating: nil, count: files.count)
      var captured = [CapturingSink?](repeating: nil, count: files.count)
      var nextToStart = 0
      var nextToPrint = 0
      func startNext() {
        guard nextToStart < files.count else { return }
        let index = nextToStart
        let file = files[index]
        nextToStart += 1
        // Files run in parallel on the runtime's pool, not on the one thread a single file's
        // steps prefer (a prompt in one file must not hold the others up).
        group.addTask(executorPreference: globalConcurrentExecutor) {
          let sink = CapturingSink()
          return (index, await self.runFile(file, stop: stop, sink: sink), sink)
        }
      }
      for _ in 0..<min(options.jobs, files.count) { startNext() }
      while let (index, result, sink) = await group.next() {
        results[index] = result
        captured[index] = sink
        startNext()
        while nextToPrint < files.count, let sink = captured[nextToPrint] {
          for chunk in sink.chunks { output.write(chunk.text, to: chunk.stream) }
          captured[nextToPrint] = nil
          nextToPrint += 1
        }
      }
      return results.enumerated().map { $1 ?? FileResult(file: files[$0].name) }
    }
  }

  func runFile(_ file: Prepared, stop: StopFlag, sink base: any OutputSink) async -> FileResult {
    let sink = RedactingSink(base, redactor: file.context.redactor)
    let console = ConsoleReporter(style: options.style, redactor: file.context.redactor)
    let startedAt = Date().timeIntervalSince1970
    let started = ContinuousClock.now
    // A `--data` row: the file and each of its tests are named `…[row N]` everywhere.
    let suffix = file.row.map { "[row \($0)]" } ?? ""
    let named: @Sendable (TestResult) -> TestResult = { test in
      var test = test
      test.name += suffix
      return test
    }
    sink.out(console.header(file.name + suffix))
    let events = InterpreterEvents(
      testFinished: { test in
        let test = named(test)
        sink.out(console.line(for: test))
        if let failure = console.failure(test) { sink.err(failure) }
      },
      output: { text, stream in sink.write(text, to: stream) })
    let interpreter = Interpreter(
      program: file.program, context: file.context, executor: options.executor, mode: .tests, style: options.style,
      variables: file.variables, events: events, stop: stop, failFast: options.failFast, interrupt: options.interrupt,
      parsed: file.parsed)
    let tests: [TestResult]
    if stop.isSet || options.interrupt?.isSet == true {
      tests = interpreter.plannedTests(reason: stop.isSet ? "stopped by --fail-fast" : "interrupted")
      tests.forEach(events.testFinished)
    } else {
      tests = await interpreter.run()
    }
    return FileResult(
      file: file.name + suffix, path: file.name, tests: tests.map(named),
      durationMs: Self.milliseconds(started.duration(to: .now)),
      startedAt: startedAt)
  }

  func writeReports(_ run: RunResult, redaction: @escaping @Sendable (String) -> String) -> Int32 {
    let renderer = DiagnosticRenderer(style: .plain, redaction: redaction)
    var code = run.exitCode
    let reports: [(String?, (RunResult, DiagnosticRenderer) -> String)] = [
      (options.reportJUnit, JUnitReport.render), (options.reportTAP, TAPReport.render),
      (options.reportJSON, JSONReport.render),
    ]
    for case (let path?, let render) in reports {
      do {
        try ReportFile.write(redaction(render(run, renderer)), to: path)
      } catch {
        let reason = (error as? ReportFile.WriteError)?.reason ?? "check the directory's permissions and free space"
        output.err("error: cannot write report '\(path)': \(reason)\n")
        // Every test passed, but the report a CI job reads is missing: an I/O error, not a failure.
        if code == 0 { code = ExitStatus.ioError }
      }
    }
    return code
  }

  /// One masking function over every redactor the files used (usually one, shared).
  static func redaction(_ redactors: [Redactor]) -> @Sendable (String) -> String {
    var unique: [Redactor] = []
    for redactor in redactors where !unique.contains(where: { $0 === redactor }) { unique.append(redactor) }
    let members = unique
    return { text in members.reduce(text) { $1.redact($0) } }
  }

  static func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
  }
}

/// `run FILE` of a file whose name does not end in `.auth` (`secrets.env`).
struct NotAScript: Error {}
