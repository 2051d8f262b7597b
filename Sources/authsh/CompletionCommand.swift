import Essentials
import ShellKit

/// `authsh completion SHELL` and the hidden `authsh __complete SHELL CWORD -- WORDS…`.
enum CompletionCommand {
  static func run(_ invocation: Invocation, sink: StandardSink) -> Int32 {
    guard let script = CompletionScripts.script(for: invocation[.completionShell] ?? "") else {
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
