import AuthCore

struct SignUpCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let source = PasswordSource(invocation: invocation, context: context)
    // On a terminal, what the line left out is asked for (e-mail, then name, then the password).
    let email = try invocation[.accountEmail] ?? source.ask("Email: ") ?? ""
    let name = try invocation[.signupName] ?? source.ask("Name: ")
    // Fields that need no password are checked first: nobody types a password for a bad address.
    let early = Validator.validate(.init(email: email, name: name, requireName: true, requirePassword: false))
    if let early, !source.isExplicit {
      throw source.canPrompt ? early : withMissingPassword(early)
    }
    guard let (password, confirm) = try source.read(confirm: true) else {
      throw early.map(withMissingPassword) ?? AuthError(.passwordRequired)
    }
    if let problem = Validator.validate(
      .init(email: email, password: password, confirm: confirm, name: name, requireName: true))
    {
      throw problem
    }
    let (provider, target) = try makeProvider(invocation, context)
    // A session that could not be kept (credential_store = "keyring", none here) fails before the password is sent.
    try context.sessions(for: target).checkAvailable()
    context.noteEmail(email)
    let outcome: SignUpOutcome
    do {
      outcome = try await provider.signUp(email: email.trimmingWhitespace, password: password, name: name)
    } catch var error as AuthError where error.code == .userAlreadyExists {
      // Someone who signed up with Google or Apple tries a password: name the button they used.
      let social = (try? await provider.socialProviders(for: email.trimmingWhitespace)) ?? []
      if let buttons = Self.buttonNames(social) {
        error.message = "An account with this email already exists. Try signing in, or use the \(buttons) button."
      }
      throw error
    }
    var result = CommandResult(.signup)
    switch outcome {
    case .signedIn(let session):
      result.payload = SessionOutput(session: session, confirmationRequired: false)
      try savedAfterSignIn("The account \(email.trimmingWhitespace) exists and is signed in") {
        try context.sessions(for: target).save(session: session)
      }
    case .confirmationSent(let user, let obfuscated):
      result.payload = SessionOutput(user: user, session: nil, confirmationRequired: true)
      result.notes.append("Check \(email.trimmingWhitespace) for a confirmation link.")
      if obfuscated {
        result.notes.append(
          "Supabase answered with a placeholder user: this address may already have an account (it hides existing accounts), so no new e-mail may arrive."
        )
      }
    }
    return result
  }
}

extension SignUpCommand {
  /// `Google/Apple` for the providers people know by a button; nil when none of them.
  static func buttonNames(_ providers: [String]) -> String? {
    let known = [
      ("google", "Google"), ("apple", "Apple"), ("github", "GitHub"), ("facebook", "Facebook"), ("azure", "Microsoft"),
      ("microsoft", "Microsoft"), ("twitter", "X"),
    ]
    var names: [String] = []
    for (provider, name) in known where providers.contains(provider) && !names.contains(name) { names.append(name) }
    return names.isEmpty ? nil : names.joined(separator: "/")
  }
}
