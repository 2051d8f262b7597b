import AuthCore
import Foundation
import ShellKit

/// `authsh run` (the .auth runner lands with the script issue).
enum RunCommand {
  static func run(_ invocation: Invocation, _ arguments: Arguments, environment: [String: String], sink: StandardSink) async -> Int32 {
    await ScriptRun.run(invocation, arguments, environment: environment, sink: sink)
  }
}

/// `authsh completion SHELL` (lands with the shell issue).
enum CompletionCommand {
  static func run(_ invocation: Invocation, sink: StandardSink) -> Int32 {
    sink.err("error: completion scripts are not part of this build yet\n")
    return 1
  }
}

/// No command: the shell on a terminal, else standard input as a list of commands.
enum Interactive {
  static func run(_ arguments: Arguments, environment: [String: String], sink: StandardSink) async -> Int32 {
    let emulator = arguments.emulator ? await EmbeddedEmulator.start(sink: sink) : nil
    let context = Contexts.make(arguments, environment: environment, sink: sink)
    if let emulator { emulator.configure(context) }
    let output = RedactingSink(sink, redactor: context.redactor)
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
