import AuthCore
import Foundation
import LineEditor
import ShellKit

/// `authsh run` (the .auth runner lands with the script issue).
enum RunCommand {
  static func run(_ invocation: Invocation, _ arguments: Arguments, environment: [String: String], sink: StandardSink) async -> Int32 {
    await ScriptRun.run(invocation, arguments, environment: environment, sink: sink)
  }
}

/// `authsh completion SHELL` and the hidden `authsh __complete SHELL CWORD -- WORDS…`.
enum CompletionCommand {
  static func run(_ invocation: Invocation, sink: StandardSink) -> Int32 {
    guard let script = CompletionScripts.script(for: invocation.argument("SHELL") ?? "") else {
      sink.err("error: completion supports bash, zsh and fish\n")
      return ExitStatus.usage
    }
    sink.out(script)
    return 0
  }

  /// Candidates, one per line; offline and side-effect free (no emulator, no session refresh).
  static func callback(_ argv: [String], environment: [String: String], sink: StandardSink) -> Int32 {
    let context = Contexts.make(Arguments(), environment: environment, sink: sink)
    guard let text = ShellCompletion.output(arguments: argv, context: context) else { return ExitStatus.usage }
    sink.out(text)
    return 0
  }
}

/// No command: the shell on a terminal, else standard input as a list of commands.
enum Interactive {
  static func run(_ arguments: Arguments, environment: [String: String], sink: StandardSink) async -> Int32 {
    let emulator = arguments.emulator ? await EmbeddedEmulator.start(sink: sink) : nil
    let context = Contexts.make(arguments, environment: environment, sink: sink)
    if let emulator { emulator.configure(context) }
    let output = RedactingSink(sink, redactor: context.redactor)
    if InteractiveShell.standardStreamsAreTerminals {
      let style = InteractiveShell.style(environment: environment, colorFlag: colorFlag(arguments))
      let status = await InteractiveShell.run(context: context, output: output, noRC: arguments.noRC, style: style)
      await emulator?.shutdown()
      return status
    }
    var status: Int32 = 0
    while let line = Swift.readLine(strippingNewline: true) {
      guard let words = try? WordSplitter.split(line), !words.isEmpty else { continue }
      switch InvocationParser.parse(words, surface: .script) {
      case .failure(let problem):
        output.err("error: \(problem.fullMessage)\n")
        status = 1
      case .success(let invocation):
        let result = await CommandRunner().run(invocation, in: context)
        let (out, err) = HumanRenderer.render(result, invocation: invocation, style: .plain, now: context.clock.unixNow)
        output.out(out)
        output.err(err)
        if !result.ok { status = 1 }
      }
    }
    await emulator?.shutdown()
    return status
  }
}

/// `--color WHEN` given before the command (the shell's colour).
private func colorFlag(_ arguments: Arguments) -> String? {
  guard let index = arguments.leadingOutputFlags.firstIndex(of: "--color"), index + 1 < arguments.leadingOutputFlags.count else {
    return nil
  }
  return arguments.leadingOutputFlags[index + 1]
}
