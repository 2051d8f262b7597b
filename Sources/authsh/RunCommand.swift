import AuthCore
import AuthEmulator
import AuthScript
import Essentials
import ShellKit

/// `authsh run FILE…`: flags → `RunOptions`, a fresh in-memory session per file, the
/// embedded emulator with `--emulator`.
enum RunCommand {
  static func run(_ invocation: Invocation, _ arguments: Arguments, environment: [String: String], sink: StandardSink)
    async -> Int32
  {
    var variables: [String: String] = [:]
    for text in invocation.all(.variable) {
      guard let (name, value) = RunOptions.parseVariable(text) else {
        return Authsh.usage(UsageError("--var needs NAME=VALUE, not '\(text)'"), command: "run", sink: sink)
      }
      variables[name] = value
    }
    let jobs = invocation[.runJobs] ?? 1
    let useEmulator = arguments.emulator || invocation[.runEmulator]
    if arguments.likeProduction || invocation[.runLikeProduction], !useEmulator {
      return Authsh.usage(
        UsageError("--like-production applies to the in-process emulator: add --emulator"), command: "run", sink: sink)
    }
    if invocation[.smtp] != nil, !useEmulator {
      return Authsh.usage(
        UsageError("--smtp applies to the in-process emulator: add --emulator"), command: "run", sink: sink)
    }
    if arguments.seed != nil, !useEmulator {
      return Authsh.usage(
        UsageError("--seed applies to the in-process emulator: add --emulator"), command: "run", sink: sink)
    }
    // A broken config.toml fails the run before anything is sent (exit 78), not test by test.
    let paths = Paths(environment: environment)
    if !useEmulator, let file = Contexts.readConfig(paths.configFile) {
      do {
        _ = try ConfigResolver(environment: environment, paths: paths, configFile: file).document()
      } catch {
        let failure = error as? AuthError ?? AuthError(.configError, message: "Cannot read \(paths.configFile).")
        sink.err(
          HumanRenderer.renderError(failure, style: Terminal.style(flag: nil, environment: environment, stream: 2)))
        return ExitStatus.configuration
      }
    }
    var data: DataTable?
    if let path = invocation[.runData] {
      do {
        let caps = ShellContext.InputCaps.dataTable
        data = try DataTable.load(
          path: path, text: try ShellContext.readFile(path, limit: caps.limit, lineLimit: caps.line))
      } catch let error as DataTable.LoadError {
        return Authsh.usage(UsageError(error.message), command: "run", sink: sink)
      } catch {
        return Authsh.usage(
          UsageError("cannot read --data \(path): \(ScriptReadError.reason(of: error))"), command: "run", sink: sink)
      }
    }
    let interrupt = StopFlag()
    let options = RunOptions(
      jobs: jobs, failFast: invocation[.failFast], variables: variables,
      reportJUnit: invocation[.reportJUnit], reportTAP: invocation[.reportTAP],
      reportJSON: invocation[.reportJSON], style: Terminal.style(flag: nil, environment: environment), data: data,
      interrupt: interrupt)
    if let problem = options.prepareReportPaths() {
      return Authsh.usage(UsageError(problem), command: "run", sink: sink)
    }
    let (emulator, failure) = await EmbeddedEmulator.startIfAsked(
      useEmulator, likeProduction: arguments.likeProduction || invocation[.runLikeProduction],
      smtp: invocation[.smtp].flatMap(EmulatorSMTP.init(rawValue:)), seed: arguments.seed, environment: environment,
      sink: sink)
    if let failure { return failure }
    let makeContext: @Sendable () -> ShellContext = {
      let context = Contexts.make(
        arguments, environment: environment, store: InMemorySessionStore(), emulated: emulator != nil, sink: sink)
      emulator?.configure(context)
      return context
    }
    // A profile that does not exist, or whose key variable is unset, is one configuration error
    // before any test runs (exit 78, as a one-shot command), not a failure per test. With nothing
    // configured at all, scripts that send nothing (offline checks) still run.
    if !useEmulator {
      do {
        _ = try makeContext().target()
      } catch let failure as AuthError
        where failure.code == .configError && failure.message != ConfigResolver.nothingConfigured(paths: paths).message
      {
        sink.err(
          HumanRenderer.renderError(failure, style: Terminal.style(flag: nil, environment: environment, stream: 2)))
        return ExitStatus.configuration
      } catch {}
    }
    // Ctrl-C / SIGTERM: the step under way finishes, the tests left are skipped, `cleanup` blocks
    // run, exit 130. A second one stops at once.
    let signals = InterruptSignals.install(sink: sink) { interrupt.set() }
    defer { signals.forEach { $0.cancel() } }
    let code = await ScriptRunner(options: options, makeContext: makeContext, output: sink).run(
      files: invocation.all(.runFiles))
    await emulator?.shutdown()
    return code
  }
}
