import AuthCore

struct RefreshCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let (provider, target) = try makeProvider(invocation, context)
    let session = try await context.sessions(for: target).refreshNow(provider: provider)
    var result = CommandResult(.refresh)
    result.payload = SessionOutput(session: session)
    result.notes.append("Tokens refreshed.")
    return result
  }
}
