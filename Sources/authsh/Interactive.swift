import AuthCore
import AuthScript
import Essentials
import LineEditor
import ShellKit

/// No command: the shell when stdin and stdout are terminals, else standard input as a script
/// (`echo whoami | authsh`, `authsh < smoke.auth`): no prompt, no line editing, never a hang.
enum Interactive {
  static func run(_ arguments: Arguments, environment: [String: String], sink: StandardSink) async -> Int32 {
    // `… | authsh --json`: the output flags given before the input apply to every line.
    let outputDefaults: [String: [FlagValue]]
    switch InvocationParser.outputDefaults(arguments.leadingOutputFlags) {
    case .success(let defaults): outputDefaults = defaults
    case .failure(let problem):
      sink.err("error: \(problem.fullMessage)\n")
      return ExitStatus.usage
    }
    let (emulator, failure) = await EmbeddedEmulator.startIfAsked(
      arguments.emulator, likeProduction: arguments.likeProduction, seed: arguments.seed, environment: environment,
      sink: sink)
    if let failure { return failure }
    // --emulator: a fresh emulator per process, so its sessions live in memory (as `run` does):
    // two emulator processes never share, or sign each other out of, a session file.
    let store: (any SessionStore)? = arguments.emulator ? InMemorySessionStore() : nil
    // On a terminal: the shell's Ctrl-C and prompters, which the context is given when made.
    let prompting = InteractiveShell.standardStreamsAreTerminals ? InteractiveShell.TerminalPrompting() : nil
    let context = Contexts.make(
      arguments, environment: environment, store: store, emulated: emulator != nil, sink: sink
    ) { services in
      services.passwordPrompter = prompting?.passwordPrompter
      services.linePrompter = prompting?.linePrompter
    }
    emulator?.configure(context)
    context.outputDefaults = outputDefaults
    let output = RedactingSink(sink, redactor: context.redactor)
    let status: Int32
    if InteractiveShell.standardStreamsAreTerminals {
      let style = InteractiveShell.style(
        environment: environment, colorFlag: outputDefaults[FlagKey.color.name]?.last?.text)
      let source: @Sendable (String) async -> Int32 = { path in
        await sourceFile(path, context: context, output: output, style: style)
      }
      // `reset confirm {{inbox.link}}`: holes filled as in scripts, from the last result.
      let clock = context.clock
      let interpolate: LineInterpolator = { words, line, previous in
        LineInterpolation.expand(
          words, line: line, previous: previous, environment: environment, now: { clock.unixNow })
      }
      status = await InteractiveShell.run(
        context: context, prompting: prompting, output: output, noRC: arguments.noRC, style: style, sourceFile: source,
        interpolate: interpolate)
    } else {
      switch StandardStreams.readInput() {
      case .success(let bytes):
        let text = String(decoding: bytes, as: UTF8.self)
        status = await ScriptRunner.runSource(
          text: ScriptRunner.untilQuit(text), name: "<stdin>", context: context, output: output)
      case .failure(let failure):
        sink.err("error: cannot read standard input: \(failure.reason)\n")
        status = ExitStatus.failure
      }
    }
    await emulator?.shutdown()
    return status
  }

  /// The shell's `source FILE.auth`: the script runs in the shell's own session.
  static func sourceFile(_ path: String, context: ShellContext, output: any OutputSink, style: Style) async -> Int32 {
    guard let data = FileManager.default.contents(atPath: path) else {
      output.err("error: cannot read \(path)\n")
      return ExitStatus.failure
    }
    return await ScriptRunner.runSource(
      text: String(decoding: data, as: UTF8.self), name: path, context: context, output: output, style: style)
  }
}
