import AuthCore

struct EchoCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    var result = CommandResult(.echo)
    result.output = invocation.all(.echoText).joined(separator: " ")
    return result
  }
}
