import AuthCore

struct LogInCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    if let phone = invocation[.loginPhone] { return try await logInWithPhone(invocation, context, number: phone) }
    if let provider = invocation[.oauth] { return try await logInWithOAuth(invocation, context, provider: provider) }
    if invocation.hasAny([FlagKey.customToken, FlagKey.customTokenEnv]) {
      return try await logInWithCustomToken(invocation, context)
    }
    if invocation[.link] { return try await logInWithLink(invocation, context) }
    let (provider, target) = try makeProvider(invocation, context)
    let sessions = context.sessions(for: target)
    let source = PasswordSource(invocation: invocation, context: context)
    let known = invocation[.accountEmail] ?? (try? sessions.state().rememberedEmail)
    let email = try known ?? source.ask("Email: ") ?? ""
    let emailProblem = Validator.validate(.init(email: email, requirePassword: false))
    if let emailProblem, !source.isExplicit {
      throw source.canPrompt ? emailProblem : withMissingPassword(emailProblem)
    }
    guard let (password, _) = try source.read(confirm: false) else {
      throw emailProblem.map(withMissingPassword) ?? AuthError(.passwordRequired)
    }
    if let problem = Validator.validate(.init(email: email, password: password, checkPasswordLength: false)) {
      throw problem
    }
    if !invocation[.noSave] { try sessions.checkAvailable() }
    context.noteEmail(email)
    let address = email.trimmingWhitespace
    let session: AuthSession
    switch try await provider.beginSignIn(email: address, password: password) {
    case .signedIn(let signedIn): session = signedIn
    case .secondFactorDue(let pending):
      session = try await secondStep(pending, provider: provider, invocation, context) {
        if case .secondFactorDue(let fresh) = try await provider.beginSignIn(email: address, password: password) {
          return fresh
        }
        return nil
      }
    }
    return try keepSignedIn(session, email: address, invocation, context, target: target)
  }
}

extension LogInCommand {
  /// Stores a new sign-in's session (in memory with `--no-save`) and makes `login`'s result.
  func keepSignedIn(
    _ session: AuthSession, email: String, _ invocation: Invocation, _ context: ShellContext, target: Target
  ) throws -> CommandResult {
    if invocation[.noSave] {
      context.pinInMemory(target)
    }
    try savedAfterSignIn("Signed in as \(email)") {
      try context.sessions(for: target).update { state in
        state.session = session
        if invocation[.remember] { state.rememberedEmail = email }
      }
    }
    var result = CommandResult(.login)
    result.payload = SessionOutput(session: session)
    if invocation[.noSave] { result.notes.append("The session is kept in memory only (--no-save).") }
    return result
  }
}
