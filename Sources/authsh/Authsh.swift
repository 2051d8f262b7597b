import AuthCore
import CProcessGuard
import Essentials
import JSONKit
import ShellKit
import SocketTransport

/// `authsh`: argv → one-shot command, script run, emulator, completion, or the shell.
@main
struct Authsh {
  /// Synchronous on purpose: what needs no I/O (`--version`, help, usage errors, completion
  /// callbacks) answers before the concurrency runtime, its threads or Foundation's environment
  /// are set up; the rest runs as one task while this thread waits.
  static func main() {
    // Before anything holds a secret: no core file, not dumpable (every mode, the emulator too).
    _ = authsh_guard_process()
    StandardStreams.prepare()
    let argv = Array(CommandLine.arguments.dropFirst())
    let arguments: Arguments
    switch prelude(argv, Arguments.parse(argv), sink: StandardSink()) {
    case .answered(let code): exit(StandardStreams.outputFailureStatus(code))
    case .run(let given): arguments = given
    }
    let environment = ProcessInfo.processInfo.environment
    let status = Guarded<Int32>(0)
    // A script is a chain of requests, each awaited before the next: its task runs on this
    // thread (ThreadTaskExecutor), which may block, and its plain-http requests are sent and read
    // right here with socket calls (SocketHTTPTransport): no thread hop, no event loop. Any other
    // surface runs on the runtime's pool while this thread waits.
    let script: ThreadTaskExecutor? = arguments.commandID == .run ? ThreadTaskExecutor() : nil
    let finished = DispatchSemaphore(value: 0)
    // A bulk change's parallel requests each get a thread that may block (see BlockingLanes).
    RequestLanes.install { BlockingLanes.shared.executors($0) }
    Task.detached(executorPreference: script) {
      let code = await run(arguments, environment: environment)
      status.update { $0 = code }
      if let script { script.stop() } else { finished.signal() }
    }
    if let script { script.run() } else { finished.wait() }
    exit(StandardStreams.outputFailureStatus(status.update { $0 }))
  }

  /// What argv asks for, when it can be answered without I/O: an exit status, or `.run` for the
  /// surfaces that do I/O.
  enum Prelude { case answered(Int32), run(Arguments) }

  static func prelude(_ argv: [String], _ parsed: Result<Arguments, UsageError>, sink: StandardSink) -> Prelude {
    if argv == ["__man"] {
      // The man page, generated from the command table (committed as man/authsh.1).
      sink.out(ManPage.render())
      return .answered(0)
    }
    if argv == ["__ledger"] {
      // The direction table of docs/moving-accounts.md, generated from the fidelity ledger (a test keeps that copy).
      sink.out(FidelityLedger.markdownTable() + "\n")
      return .answered(0)
    }
    if argv.first == "__complete" {
      return .answered(
        CompletionCommand.callback(
          Array(argv.dropFirst()), environment: ProcessInfo.processInfo.environment, sink: sink))
    }
    let arguments: Arguments
    switch parsed {
    case .success(let given): arguments = given
    case .failure(let problem): return .answered(usage(problem, command: nil, sink: sink))
    }
    if arguments.version {
      sink.out("authsh \(AuthshVersion.current)\n")
      return .answered(0)
    }
    // `run` and `emulator` start an emulator of their own, which these flags configure.
    let startsEmulator = [.run, .emulator, .emulatorFaultsClear].contains(arguments.commandID)
    if arguments.likeProduction, !arguments.emulator, !startsEmulator {
      return .answered(
        usage(
          UsageError("--like-production applies to the in-process emulator: add --emulator"), command: nil, sink: sink))
    }
    if arguments.seed != nil, !arguments.emulator, !startsEmulator {
      return .answered(
        usage(UsageError("--seed applies to the in-process emulator: add --emulator"), command: nil, sink: sink))
    }
    guard !arguments.command.isEmpty else {
      if arguments.help {
        sink.out(HelpRenderer.overview(surface: .oneShot) + "\n")
        return .answered(0)
      }
      return .run(arguments)
    }
    let beforeDoubleDash = arguments.command.prefix { $0 != "--" }
    let asksForHelp = arguments.commandID == .help
    if arguments.help || asksForHelp || beforeDoubleDash.contains("--help") || beforeDoubleDash.contains("-h") {
      let topic = asksForHelp ? Array(arguments.command.dropFirst()) : arguments.command
      return .answered(help(topic, sink: sink))
    }
    return .run(arguments)
  }

  /// The surfaces that do I/O: the shell, the emulator, one-shot commands and `run`.
  static func run(_ arguments: Arguments, environment: [String: String]) async -> Int32 {
    let sink = StandardSink()
    guard !arguments.command.isEmpty else {
      return await Interactive.run(arguments, environment: environment, sink: sink)
    }
    if let id = arguments.commandID, let command = ExecutableCommands.wholeLine[id] {
      return await command(arguments, environment, sink)
    }
    return await OneShot.run(arguments, environment: environment, sink: sink)  // a usage error there when none
  }

  static func help(_ topic: [String], sink: some OutputSink) -> Int32 {
    let words = topic.filter { !$0.hasPrefix("-") }
    switch HelpTopics.render(words, surface: .oneShot) {
    case .success(let text):
      sink.out(text + "\n")
      return 0
    case .failure(let problem):
      sink.err("error: \(TerminalText.escape(problem.fullMessage))\n")
      return ExitStatus.usage
    }
  }

  /// A usage error on standard error; with `json` (`--json` among the words), also the failed
  /// result's object on standard output, as every other failure of a `--json` command prints.
  static func usage(_ problem: UsageError, command: String?, sink: some OutputSink, json: Bool = false) -> Int32 {
    sink.err("error: \(TerminalText.escapeKeepingLines(problem.fullMessage))\n")
    sink.err("Run 'authsh help\(command.map { " " + $0 } ?? "")' for usage.\n")
    if json {
      let error = AuthError(.usage, message: problem.fullMessage)
      let spec = command.flatMap { name in CommandTable.all.first { $0.name == name } }
      let result = spec.map { CommandTable.failure($0, error) } ?? .failure(command ?? "authsh", error)
      sink.out(
        result.json(now: Int(Date().timeIntervalSince1970), revealTokens: false, includeClaims: false).prettyText + "\n"
      )
    }
    return ExitStatus.usage
  }
}
