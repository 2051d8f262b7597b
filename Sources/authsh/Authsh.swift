import AuthCore
import Foundation
import NIOCore
import NIOPosix
import ShellKit

/// `authsh`: argv → one-shot command, script run, emulator, completion, or the shell.
@main
struct Authsh {
  static func main() async {
    StandardStreams.prepare()
    if case .success(let parsed) = Arguments.parse(Array(CommandLine.arguments.dropFirst())), parsed.command.first == "run" {
      // Scripts are a chain of awaits on NIO I/O: running their tasks on the NIO event loops
      // spares two thread hops per request. Not for the shell, whose
      // line reader blocks its thread.
      NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
    let code = await run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
    exit(StandardStreams.outputFailureStatus(code))
  }

  static func run(_ argv: [String], environment: [String: String]) async -> Int32 {
    let sink = StandardSink()
    if argv == ["__man"] {
      // The man page, generated from the command table (committed as man/authsh.1).
      sink.out(ManPage.render())
      return 0
    }
    if argv.first == "__complete" {
      return CompletionCommand.callback(Array(argv.dropFirst()), environment: environment, sink: sink)
    }
    let arguments: Arguments
    switch Arguments.parse(argv) {
    case .success(let parsed): arguments = parsed
    case .failure(let problem): return usage(problem, command: nil, sink: sink)
    }
    if arguments.version {
      sink.out("authsh \(AuthshVersion.current)\n")
      return 0
    }
    if arguments.likeProduction, !arguments.emulator, !["run", "emulator"].contains(arguments.command.first ?? "") {
      return usage(UsageError("--like-production applies to the in-process emulator: add --emulator"), command: nil, sink: sink)
    }
    if arguments.seed != nil, !arguments.emulator, !["run", "emulator"].contains(arguments.command.first ?? "") {
      return usage(UsageError("--seed applies to the in-process emulator: add --emulator"), command: nil, sink: sink)
    }
    guard let first = arguments.command.first else {
      if arguments.help {
        sink.out(HelpRenderer.overview(surface: .oneShot) + "\n")
        return 0
      }
      return await Interactive.run(arguments, environment: environment, sink: sink)
    }
    let beforeDoubleDash = arguments.command.prefix { $0 != "--" }
    if arguments.help || first == "help" || beforeDoubleDash.contains("--help") || beforeDoubleDash.contains("-h") {
      let topic = first == "help" ? Array(arguments.command.dropFirst()) : arguments.command
      return help(topic, sink: sink)
    }
    switch first {
    case "emulator": return await EmulatorCommand.run(arguments, environment: environment, sink: sink)
    default: return await OneShot.run(arguments, environment: environment, sink: sink)
    }
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

  static func usage(_ problem: UsageError, command: String?, sink: some OutputSink) -> Int32 {
    sink.err("error: \(TerminalText.escapeKeepingLines(problem.fullMessage))\n")
    sink.err("Run 'authsh help\(command.map { " " + $0 } ?? "")' for usage.\n")
    return ExitStatus.usage
  }
}
