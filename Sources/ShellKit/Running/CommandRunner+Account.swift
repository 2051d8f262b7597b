import AuthCore

extension CommandRunner {
  func signUp(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
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
      result.session = session
      result.confirmationRequired = false
      try savedAfterSignIn("The account \(email.trimmingWhitespace) exists and is signed in") {
        try context.sessions(for: target).save(session: session)
      }
    case .confirmationSent(let user, let obfuscated):
      result.user = user
      result.confirmationRequired = true
      result.notes.append("Check \(email.trimmingWhitespace) for a confirmation link.")
      if obfuscated {
        result.notes.append(
          "Supabase answered with a placeholder user: this address may already have an account (it hides existing accounts), so no new e-mail may arrive."
        )
      }
    }
    return result
  }

  func logIn(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
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
    result.session = session
    if invocation[.noSave] { result.notes.append("The session is kept in memory only (--no-save).") }
    return result
  }

  func reset(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    let given = try invocation[.resetAddress] ?? PasswordSource(invocation: invocation, context: context).ask("Email: ")
    let email = (given ?? "").trimmingWhitespace
    if let problem = Validator.validate(.init(email: email, requirePassword: false)) { throw problem }
    let (provider, target) = try makeProvider(invocation, context)
    let sessions = context.sessions(for: target)
    let key = email.lowercased()
    let now = context.clock.unixNow
    // state() holds only the reset holds still in their window (sent <= now, within the hold).
    if let sent = try sessions.state().resetSentAt[key] {
      throw AuthError(
        .resetCooldown, retryAfterSeconds: SessionManager.resetHoldSeconds - UnixTime.difference(now, sent))
    }
    context.noteEmail(email)
    let pkce = Self.pkcePair(for: target)
    do {
      try await provider.sendPasswordReset(email: email, pkce: pkce)
    } catch let error as AuthError {
      throw error.inResetContext()
    }
    try sessions.update { state in
      state.resetSentAt[key] = now
      if let pkce { state.keepPKCEFlow(.recovery, email: email, verifier: pkce.verifier, now: now) }
    }
    var result = CommandResult(.reset)
    result.reset = email
    result.notes.append("Sent a password-reset e-mail to \(email).")
    if pkce != nil { result.notes.append(Self.pkceResetNote) }
    if provider.kind == .supabase {
      result.notes.append("Supabase does not say whether the address has an account; no e-mail arrives if it has none.")
    }
    return result
  }

  func confirmReset(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
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
    result.session = session
    result.notes.append("Password changed.")
    return result
  }

  /// Saves a session the server has just issued: what cannot be written (a full disk) is an I/O
  /// failure (exit 74) that says what already happened on the server.
  private func savedAfterSignIn(_ done: String, _ save: () throws -> Void) throws {
    do {
      try save()
    } catch let error as AuthError {
      throw AuthError(
        .sessionNotSaved, message: "\(done), but the session could not be saved: \(error.message)", hint: error.hint)
    }
  }

  /// A validation error plus "Password is required" (no source and no terminal).
  private func withMissingPassword(_ error: AuthError) -> AuthError {
    guard error.field(.password) == nil else { return error }
    var fields = error.fields
    fields.append(FieldError(.password, code: "password_required", message: "Password is required"))
    let order = Field.allCases
    fields.sort { (order.firstIndex(of: $0.field) ?? 0) < (order.firstIndex(of: $1.field) ?? 0) }
    return AuthError(.validationFailed, message: fields.map(\.message).joined(separator: "; "), fields: fields)
  }

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
