import AuthCore

struct ResetConfirmCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let code = (invocation[.codeOrLink] ?? "").trimmingWhitespace
    let email = invocation[.resetEmail]
    if let email, let problem = Validator.validate(.init(email: email, requirePassword: false)) { throw problem }
    let source = PasswordSource(invocation: invocation, context: context)
    guard let (password, confirm) = try source.read(confirm: true) else { throw AuthError(.passwordRequired) }
    if let problem = Validator.validate(.init(password: password, confirm: confirm, requireEmail: false)) {
      throw problem
    }
    let (provider, target) = try makeProvider(invocation, context)
    try context.sessions(for: target).checkAvailable()
    let sessions = context.sessions(for: target)
    let session: AuthSession
    do {
      session = try await confirmReset(
        codeOrLink: code, email: email, newPassword: password, provider: provider, sessions: sessions)
    } catch let error as AuthError {
      throw error.inResetContext()
    }
    try savedAfterSignIn("The password was changed and you are signed in") {
      try sessions.update { state in
        state.session = session
        state.keyringSession = nil
        state.pkceFlows[PendingPKCEFlow.key(.recovery, email: session.user.email)] = nil
      }
    }
    var result = CommandResult(.resetConfirm)
    result.payload = SessionOutput(session: session)
    result.notes.append("Password changed.")
    return result
  }
}
