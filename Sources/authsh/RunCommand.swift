import AuthCore
import AuthScript
import Foundation
import ShellKit

/// `authsh run FILE…`: flags → `RunOptions`, a fresh in-memory session per file, the
/// embedded emulator with `--emulator`.
enum RunCommand {
  static func run(_ invocation: Invocation, _ arguments: Arguments, environment: [String: String], sink: StandardSink) async -> Int32 {
    var variables: [String: String] = [:]
    for text in invocation.values("--var") {
      guard let (name, value) = RunOptions.parseVariable(text) else {
        return Authsh.usage(UsageError("--var needs NAME=VALUE, not '\(text)'"), command: "run", sink: sink)
      }
      variables[name] = value
    }
    var jobs = 1
    if let text = invocation.value("--jobs") {
      guard let value = Int(text), value >= 1 else {
        return Authsh.usage(UsageError("--jobs needs a positive number, not '\(text)'"), command: "run", sink: sink)
      }
      jobs = value
    }
    let useEmulator = arguments.emulator || invocation.has("--emulator")
    if arguments.likeProduction || invocation.has("--like-production"), !useEmulator {
      return Authsh.usage(UsageError("--like-production applies to the in-process emulator: add --emulator"), command: "run", sink: sink)
    }
    // A broken config.toml fails the run before anything is sent (exit 78), not test by test.
    let paths = Paths(environment: environment)
    if !useEmulator, let file = Contexts.readConfig(paths.configFile) {
      do {
        _ = try ConfigResolver(environment: environment, paths: paths, configFile: file).document()
      } catch {
        let failure = error as? AuthError ?? AuthError(.configError, message: "Cannot read \(paths.configFile).")
        sink.err(HumanRenderer.renderError(failure, style: Terminal.style(flag: nil, environment: environment, stream: 2)))
        return ExitStatus.configuration
      }
    }
    let options = RunOptions(
      jobs: jobs, failFast: invocation.has("--fail-fast"), variables: variables,
      reportJUnit: invocation.value("--report-junit"), reportTAP: invocation.value("--report-tap"),
      reportJSON: invocation.value("--report-json"), style: Terminal.style(flag: nil, environment: environment))
    if let problem = options.prepareReportPaths() {
      return Authsh.usage(UsageError(problem), command: "run", sink: sink)
    }
    let (emulator, failure) = await EmbeddedEmulator.startIfAsked(
      useEmulator, likeProduction: arguments.likeProduction || invocation.has("--like-production"),
      environment: environment, sink: sink)
    if let failure { return failure }
    let makeContext: @Sendable () -> ShellContext = {
      let context = Contexts.make(arguments, environment: environment, store: InMemorySessionStore(), sink: sink)
      emulator?.configure(context)
      return context
    }
    let code = await ScriptRunner(options: options, makeContext: makeContext, output: sink).run(files: invocation.rest)
    await emulator?.shutdown()
    return code
  }
}
