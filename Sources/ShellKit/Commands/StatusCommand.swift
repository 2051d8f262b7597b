import AuthCore

struct StatusCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let target = try self.target(invocation, context)
    let sessions = context.sessions(for: target)
    // Without --show-tokens the tokens are not needed: a keyring stays locked.
    let session = try invocation.output(.showTokens) ? sessions.storedSession() : sessions.storedSummary()
    var result = CommandResult(.status)
    var status = StatusInfo(
      provider: target.provider, profile: target.profile, url: target.url, signedIn: session != nil)
    let location = sessions.location
    status.sessionStore = location.kind.rawValue
    status.sessionLocation = location.place
    if let why = location.unreadable, session != nil {
      status.sessionUnreadable = why
      result.notes.append("The session's tokens cannot be read: \(why).")
    }
    result.payload = StatusOutput(status: status, session: session)
    result.notes += target.environmentNotes
    return result
  }
}
