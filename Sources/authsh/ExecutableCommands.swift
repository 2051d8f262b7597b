import AuthCore
import Essentials
import ShellKit

/// The commands the executable runs itself, not the command runner: they start an emulator of
/// their own, run scripts or print a shell's completion script. The table lists them for help and
/// completion; these lists pair each with its entry, as `CommandTable.handlers` does for the rest.
enum ExecutableCommands {
  typealias WholeLine = @Sendable (Arguments, [String: String], StandardSink) async -> Int32
  typealias Parsed = @Sendable (Invocation, Arguments, [String: String], StandardSink) async -> Int32

  /// Those that read the whole command line themselves (`emulator`'s flags are its own).
  static let wholeLine: [CommandID: WholeLine] = [
    .emulator: { await EmulatorCommand.run($0, environment: $1, sink: $2) },
    .emulatorFaultsClear: { await EmulatorCommand.run($0, environment: $1, sink: $2) },
  ]

  /// Those parsed by the table like any command, then run here.
  static let parsed: [CommandID: Parsed] = [
    .run: { await RunCommand.run($0, $1, environment: $2, sink: $3) },
    .completion: { invocation, _, _, sink in CompletionCommand.run(invocation, sink: sink) },
  ]
}
