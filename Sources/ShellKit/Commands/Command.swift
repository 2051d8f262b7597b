import AuthCore

/// One command of the table: how it runs. Each command is its own type (`WhoamiCommand`,
/// `UserDisableCommand`, …) and `CommandTable.handlers` pairs every row with one, so a command
/// lives in its row and its type, nowhere else. The rails commands share (the target, the
/// provider, the readonly and audit rails of a change, `--from` batches) are the protocol's
/// extensions in `Rails/`.
///
/// `run` returns the result or throws; `CommandRunner` turns a throw into the result's error.
/// Library code: it never prints and never exits.
protocol Command: Sendable {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult
  /// What this line prints or draws as it goes, for the caller to wire into `io` (nil: only the
  /// result). By default, a bulk change (`--from`, `--resume`) is a batch.
  func live(_ invocation: Invocation) -> LiveOutput?
  /// What this line reads from standard input besides a password (nil: nothing), for the caller
  /// to check or hand over before it runs.
  func standardInput(_ invocation: Invocation) -> StandardInputUse?
  /// The output of a result that failed before the command made one (nil: the envelope alone).
  var outputOnFailure: (any CommandOutput)? { get }
}

extension Command {
  func live(_ invocation: Invocation) -> LiveOutput? { (try? isBulk(invocation)) == true ? .batch : nil }
  func standardInput(_ invocation: Invocation) -> StandardInputUse? { nil }
  var outputOnFailure: (any CommandOutput)? { nil }
}

/// How a command line uses standard input (`Command.standardInput`).
package enum StandardInputUse: Sendable, Equatable {
  /// Read as it goes (`user import -`): a terminal there is refused with `reason`, since the
  /// command would wait for text to be typed behind its spinner.
  case stream(refusedOnTerminal: String)
  /// Read whole when it is a pipe (`secret set NAME < FILE`); a terminal asks with echo off instead.
  case text
}

/// `version`.
struct VersionCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    var result = CommandResult(command: invocation.spec.name)
    result.output = "authsh \(AuthshVersion.current)"
    return result
  }
}

/// The shell's own commands (`history`, `retry`, …) and the executable's (`run`, `emulator`, …):
/// the table lists them for help and completion; the shell or the executable runs them, so
/// reaching this handler is a command used where it does not work.
struct ElsewhereCommand: Command {
  enum Place { case shell, executable }
  let place: Place

  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    switch place {
    case .shell:
      throw AuthError(.usage, message: "'\(invocation.spec.name)' works only in the interactive shell")
    case .executable:
      throw AuthError(
        .usage, message: "'\(invocation.spec.name)' works only as `authsh \(invocation.spec.name) …` from a shell")
    }
  }
}
