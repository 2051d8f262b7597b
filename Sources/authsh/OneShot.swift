import AuthCore
import Foundation
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
    case .failure(let problem): return Authsh.usage(problem, command: CommandTable.match(arguments.command)?.spec.name, sink: sink)
    }
    if let problem = arguments.absorb(&invocation) { return Authsh.usage(problem, command: invocation.spec.name, sink: sink) }
    if invocation.spec.name == "run" { return await RunCommand.run(invocation, arguments, environment: environment, sink: sink) }
    if invocation.spec.name == "completion" { return CompletionCommand.run(invocation, sink: sink) }

    let emulator = arguments.emulator ? await EmbeddedEmulator.start(sink: sink) : nil
    let context = Contexts.make(arguments, environment: environment, sink: sink)
    if let emulator { emulator.configure(context) }
    context.verbose = invocation.has("--verbose")
    if Terminal.stdinIsTTY { context.passwordPrompter = TerminalPasswordPrompter() }
    if invocation.has("--password-stdin") { context.readStdinLine = { Swift.readLine(strippingNewline: true) } }
    if invocation.has("--password"), Terminal.stderrIsTTY {
      sink.err("warning: a password on the command line can be seen by other users (prefer --password-env or the prompt)\n")
    }

    let spinner = Spinner()
    if let text = invocation.spec.loadingText { spinner.start(text, environment: environment) }
    let result = await CommandRunner().run(invocation, in: context)
    await spinner.stop()
    await emulator?.shutdown()

    let tokens = invocation.has("--show-tokens") ? [result.session?.accessToken, result.session?.refreshToken].compactMap { $0 } : []
    let output = RedactingSink(sink, redactor: tokens.isEmpty ? context.redactor : context.redactor.revealing(tokens))
    let now = context.clock.unixNow
    if invocation.has("--json") {
      output.out(result.json(now: now, revealTokens: invocation.has("--show-tokens")).prettyText + "\n")
    } else {
      let style = Terminal.style(flag: invocation.value("--color"), environment: environment, stream: result.ok ? 1 : 2)
      let (out, err) = HumanRenderer.render(result, invocation: invocation, style: style, now: now)
      output.out(out)
      output.err(err)
      if let detail = result.error?.detail, context.verbose { output.err("  detail: \(TerminalText.escape(detail))\n") }
    }
    return ExitStatus.oneShot(result)
  }
}
