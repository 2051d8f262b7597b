import AuthCore

struct HelpCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    var result = CommandResult(.help)
    switch HelpTopics.render(invocation.all(.helpTopic), surface: .interactive) {
    case .success(let text): result.output = text
    case .failure(let problem): result.error = AuthError(.usage, message: problem.fullMessage)
    }
    return result
  }
}
