import AuthCore

extension LogInCommand {
  func logInWithLink(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    let source = PasswordSource(invocation: invocation, context: context)
    guard !source.isExplicit else {
      throw AuthError(
        .usage,
        message: "login --link signs in without a password: leave out --password, --password-env and --password-stdin.")
    }
    let (provider, target) = try makeProvider(invocation, context)
    let sessions = context.sessions(for: target)
    let known = invocation[.accountEmail] ?? (try? sessions.state().rememberedEmail)
    let email = (try known ?? source.ask("Email: ") ?? "").trimmingWhitespace
    if let problem = Validator.validate(.init(email: email, requirePassword: false)) { throw problem }
    if !invocation[.noSave] { try sessions.checkAvailable() }
    context.noteEmail(email)
    // PKCE: the verifier lives only as long as this command (the link is pasted into it).
    let pkce = Self.pkcePair(for: target)
    try await provider.sendSignInLink(email: email, pkce: pkce)
    let codeOrLink = try await mailedLinkOrCode(to: email, provider: provider, context)
    let session: AuthSession
    switch try await signInWithLink(email: email, codeOrLink: codeOrLink, pkce: pkce, provider: provider) {
    case .signedIn(let signedIn): session = signedIn
    case .secondFactorDue(let pending):
      session = try await secondStep(pending, provider: provider, invocation, context) { nil }
    }
    var result = try keepSignedIn(session, email: email, invocation, context, target: target)
    result.notes.insert("Signed in with the link mailed to \(email).", at: 0)
    return result
  }

  /// Pasted on a terminal; without one, read from an emulator's outbox.
  private func mailedLinkOrCode(to email: String, provider: any AuthProvider, _ context: ShellContext) async throws
    -> String
  {
    if let prompter = context.passwordPrompter, prompter.readsText {
      guard let typed = prompter.readPassword(prompt: "Paste the link or code mailed to \(email): ") else {
        throw AuthError(.cancelled)
      }
      let text = typed.trimmingWhitespace
      context.redactor.register(text)
      return text
    }
    let message: InboxMessage?
    do {
      message = try await provider.latestMail(to: email)
    } catch let error as AuthError where error.code == .notSupported || error.code == .configError {
      throw AuthError(
        .notSupported,
        message:
          "login --link needs a terminal to paste the mailed link into (only an emulator's outbox can be read instead).",
        detail: error.message)
    }
    guard let message, !(message.link.isEmpty && message.code.isEmpty) else {
      throw AuthError(.noMail, message: "No sign-in mail to \(email) arrived.")
    }
    message.secretValues.forEach(context.redactor.register)
    return message.link.isEmpty ? message.code : message.link
  }
}
