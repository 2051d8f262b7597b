import AuthCore

struct WhoamiCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let (provider, target) = try makeProvider(invocation, context)
    let sessions = context.sessions(for: target)
    let (user, used) = try await sessions.authorized(provider: provider) { try await provider.user(of: $0) }
    var session = used
    if user != session.user {
      session.user = user
      try sessions.save(session: session)
    }
    var result = CommandResult(.whoami)
    result.payload = SessionOutput(user: user, session: session)
    return result
  }
}
