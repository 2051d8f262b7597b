import AuthCore
import Essentials
import ShellKit

/// `authsh COMMAND …` from a shell: parse by the table, run, print, exit code.
enum OneShot {
  static func run(_ given: Arguments, environment: [String: String], sink: StandardSink) async -> Int32 {
    var arguments = given
    let words = (arguments.command + arguments.leadingOutputFlags).enumerated().map { index, text in
      Word(text: text, start: index, end: index + 1)
    }
    var invocation: Invocation
    switch InvocationParser.parse(words, surface: .oneShot, extraFlags: CommandTable.connectionFlags) {
    case .success(let parsed): invocation = parsed
    case .failure(let problem):
      // `authsh login ada@example.com hunter2`: the password is not repeated on either stream.
      let masked = HistoryPolicy.masked(problem, words: words)
      return Authsh.usage(
        masked, command: CommandTable.match(arguments.command)?.spec.name, sink: sink, json: problem.asksForJSON)
    }
    // `--json` given: a usage error comes as JSON too.
    let json = invocation.output(.json)
    if let problem = arguments.absorb(&invocation) {
      return Authsh.usage(problem, command: invocation.spec.name, sink: sink, json: json)
    }
    if invocation.given(.passwordStdin), Terminal.stdinIsTTY {
      // Typed on a terminal it would echo, behind no prompt: the flag is for pipes.
      let problem = UsageError(
        "--password-stdin reads the password from a pipe, but standard input is a terminal; leave it out to be asked with echo off"
      )
      return Authsh.usage(problem, command: invocation.spec.name, sink: sink, json: json)
    }
    if invocation.given(.password) {
      // argv is world-readable (/proc/PID/cmdline, ps): say so once, on standard error only.
      sink.err(Self.passwordInArgvWarning)
    }
    let input = CommandTable.standardInput(invocation)
    if case .stream(let reason)? = input, Terminal.stdinIsTTY {
      return Authsh.usage(UsageError(reason), command: invocation.spec.name, sink: sink, json: json)
    }
    if let command = ExecutableCommands.parsed[invocation.id] {
      return await command(invocation, arguments, environment, sink)
    }

    let (emulator, failure) = await EmbeddedEmulator.startIfAsked(
      arguments.emulator, likeProduction: arguments.likeProduction, seed: arguments.seed, environment: environment,
      sink: sink)
    if let failure { return failure }
    // --emulator: a fresh emulator per process, so its sessions live in memory (as `run` does):
    // two emulator processes never share, or sign each other out of, a session file.
    let store: (any SessionStore)? = arguments.emulator ? InMemorySessionStore() : nil
    let prompter: (any PasswordPrompter)? = Terminal.stdinIsTTY ? TerminalPasswordPrompter() : nil
    // A support command's "type the e-mail to confirm", through the password prompter's echoed
    // question: the spinner pauses for it too.
    let confirmer = prompter.flatMap { prompter in
      invocation.spec.group == .support && prompter.readsText
        ? EchoedLinePrompter(SpinnerPausingPrompter(base: prompter)) : nil
    }
    let context = Contexts.make(
      arguments, environment: environment, store: store, emulated: emulator != nil, sink: sink
    ) { services in
      services.passwordPrompter = prompter
      services.linePrompter = confirmer
      if invocation.given(.passwordStdin) { services.readStdinLine = { Swift.readLine(strippingNewline: true) } }
      if input == .text, !Terminal.stdinIsTTY { services.readStdinText = Self.readStandardInput }
    }
    if let emulator { emulator.configure(context) }
    context.verbose = invocation.output(.verbose)
    // Both streams: the typed-code path draws the QR code in the prompt, on standard error.
    context.outputToPerson = Terminal.stdoutIsTTY && Terminal.stderrIsTTY
    if invocation.given(.password), Terminal.stderrIsTTY {
      sink.err(
        "warning: a password on the command line can be seen by other users (prefer --password-env or the prompt)\n")
    }

    // As in the shell: the spinner never draws over a password prompt; it shows once every
    // prompt is answered and the request is under way.
    let (io, progress) = StandardIO.make(invocation, context, environment: environment, sink: sink)
    let loading = LoadingText.text(for: invocation.spec, target: try? context.target())
    // `--jsonl`, a batch's progress line and `user export` print as they go: no spinner in between.
    let spinner =
      io.streams
      ? nil
      : loading.flatMap { Self.spinner(for: $0, invocation, context: context, environment: environment, sink: sink) }
    progress?.onFirstDraw = { spinner?.stop() }
    // Ctrl-C or SIGTERM from here on: the command is cancelled, prints what it finished,
    // "Cancelled.", exit 130 or 143. A bulk change or an import stops between accounts instead.
    let batchStop = io.batchStop
    // A prompt of the command stops its spinner while it asks.
    let pause = spinner.flatMap { spinner in loading.map { PromptPause(spinner: spinner, text: $0) } }
    let command = Task { [invocation] in
      await PromptPause.$current.withValue(pause) { await CommandRunner().run(invocation, in: context, io: io) }
    }
    if let stop = batchStop {
      // A bulk change: the first signal lets what is in flight finish (one request timeout at
      // most) and writes every account's outcome; a second ends it at once.
      let grace = UInt32(min((try? context.target())?.timeout ?? 30, 86_400)) + 5
      EchoGuard.cancelOnInterrupt(terminal: Terminal.stderrIsTTY, grace: grace) {
        StandardStreams.write(
          "\nStopping: no more accounts start; waiting for those in flight, then the report and summary (again to stop at once).\n",
          to: 2)
        stop.stop()
      }
    } else {
      EchoGuard.cancelOnInterrupt(terminal: Terminal.stderrIsTTY, cancel: { command.cancel() })
    }
    var result = await command.value
    let interrupted = EchoGuard.signalReceived
    if interrupted != 0 { result = Self.interrupted(result, by: interrupted) }
    spinner?.stop()
    progress?.clear()
    await emulator?.shutdown()

    let tokens = ResultText.revealed(result, invocation: invocation)
    let output = RedactingSink(sink, redactor: tokens.isEmpty ? context.redactor : context.redactor.revealing(tokens))
    let now = context.clock.unixNow
    if (result.payload(as: AccountsOutput.self)?.streamed ?? 0) > 0 || (io.lookupStream != nil && interrupted != 0) {
      // `user show --jsonl`: every line went out as its lookup completed; only an input that
      // ended in a line no address can be has more to say.
      if interrupted == 0, let error = result.error, error.code == .usage {
        output.err(
          HumanRenderer.renderError(
            error, style: Terminal.style(flag: invocation.output(.color), environment: environment, stream: 2)))
      }
    } else if interrupted != 0, !invocation.output(.json) {
      // What finished on standard output; "Cancelled." instead of an error block.
      var finished = result
      finished.error = nil
      let style = Terminal.style(flag: invocation.output(.color), environment: environment, stream: 1)
      output.out(ResultText.render(finished, invocation: invocation, style: style, now: now).out)
      // Stopped before anything was sent (an import's check): it says so, as the shell does.
      if let error = result.error, error.neverSent, !error.message.isEmpty {
        output.err(TerminalText.escape(error.message) + "\n")
      }
    } else {
      let style = Terminal.style(
        flag: invocation.output(.color), environment: environment, stream: result.error == nil ? 1 : 2)
      let (out, err) = ResultText.render(result, invocation: invocation, style: style, now: now)
      output.out(out)
      output.err(err)
      if let detail = result.error?.detail, context.verbose, !invocation.output(.json) {
        output.err("  detail: \(TerminalText.escape(detail))\n")
      }
    }
    if interrupted != 0 {
      EchoGuard.writeMessage()
      // A batch's report and summary give each account's outcome: no general warning on top.
      if batchStop == nil, let note = ResultText.cancelledNote(invocation, error: result.error) {
        sink.err(TerminalText.escape(note) + "\n")
      }
      return 128 + interrupted
    }
    return ExitStatus.oneShot(result)
  }

  /// All of standard input as text (`secret set NAME < FILE`).
  @Sendable static func readStandardInput() throws -> String {
    switch StandardStreams.readInput() {
    case .success(let bytes): return String(decoding: bytes, as: UTF8.self)
    case .failure(let failure): throw AuthError(.usage, message: "Cannot read standard input: \(failure.reason).")
    }
  }

  /// The result of a command stopped by `signal`: what it finished, and an error saying it was
  /// interrupted (unless it had failed otherwise).
  static func interrupted(_ given: CommandResult, by signal: Int32) -> CommandResult {
    var result = given
    // Stopped before anything was sent (an import's check): its own words say so.
    if let error = result.error, error.code == .cancelled, error.neverSent, !error.message.isEmpty { return result }
    if result.error == nil || result.error?.code == .cancelled {
      let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
      var error = AuthError(.cancelled, message: "Interrupted (\(name)); what had finished is shown.")
      error.detail = result.error?.detail
      // What the command said its interruption left behind (`ResultText.cancelledNote`).
      error.hint = result.error?.code == .cancelled ? result.error?.hint : nil
      result.error = error
    }
    return result
  }

  /// The loading words on standard error, only on a terminal and never in CI. A command that will
  /// ask for its password starts it once the prompts are answered; a prompt pauses it anyway.
  private static func spinner(
    for text: String, _ invocation: Invocation, context: ShellContext, environment: [String: String], sink: StandardSink
  ) -> TerminalSpinner? {
    guard Terminal.stderrIsTTY, (environment["CI"] ?? "").isEmpty else { return nil }
    let spinner = TerminalSpinner(
      output: sink, unicode: Terminal.style(flag: nil, environment: environment, stream: 2).unicode)
    guard context.passwordPrompter != nil else {
      spinner.start(text)
      return spinner
    }
    let willAsk =
      (invocation.spec.accepts(FlagKey.password.name) && !invocation.hasAny(passwordFlags))
      || (invocation.spec.arguments.contains {
        $0.kind == .email && !$0.variadic && invocation.arguments[$0.name] == nil
      })
    if !willAsk { spinner.start(text) }
    return spinner
  }

  static let passwordInArgvWarning =
    "warning: --password puts the password on the command line, where other users of this machine can read it"
    + " (ps, /proc/PID/cmdline) while authsh runs; use --password-stdin (printf '%s\\n' \"$PW\" | authsh …) or"
    + " --password-env VAR instead.\n"
}
