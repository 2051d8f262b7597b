import AuthCore

extension CommandRunner {
  func whoami(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    let (provider, target) = try makeProvider(invocation, context)
    let sessions = context.sessions(for: target)
    let (user, used) = try await sessions.authorized(provider: provider) { try await provider.user(of: $0) }
    var session = used
    if user != session.user {
      session.user = user
      try sessions.save(session: session)
    }
    var result = CommandResult(.whoami)
    result.session = session
    result.user = user
    return result
  }

  func logOut(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    let (provider, target) = try makeProvider(invocation, context)
    let sessions = context.sessions(for: target)
    // `local` by default: a support tool signed in as someone must not end their sessions elsewhere.
    let scope = invocation[.scope].flatMap(LogoutScope.init(rawValue:)) ?? .local
    if target.provider == .firebase, scope != .local {
      throw AuthError(
        .notSupported,
        message: "Firebase has no sign-out call for other sessions: --scope \(scope.rawValue) cannot end them.",
        hint: "Revoke them with the admin API: authsh user signout EMAIL (needs a service account).")
    }
    var result = CommandResult(.logout)
    let state = try sessions.state()
    if state.keyringSession != nil {
      // The tokens are in a keyring this run cannot use: the server session cannot be ended
      // (no token to send) and the keyring item cannot be deleted. Saying "removed" would leave
      // both behind unseen.
      throw AuthError(
        .keyringUnavailable,
        message: "Not signed out: "
          + (state.sessionProblem?.message ?? "the session's tokens are in the keyring, which cannot be reached here.")
          + " The session on the server and its tokens in the keyring are unchanged.",
        hint:
          "Run authsh logout where the keyring can be reached (your desktop session, with credential_store = \"auto\"),"
          + " or end the account's sessions with an admin key: authsh user signout \(state.keyringSession?.user.label ?? "EMAIL")."
      )
    }
    if state.sessionProblem != nil, scope != .others {
      // Unusable (out-of-range expiry, missing token): nothing to send, only the file to clear.
      try sessions.save(session: nil)
      result.notes.append("Removed the saved session: it could not be used. Log in again.")
      return result
    }
    guard try sessions.storedSession() != nil else { throw AuthError(.notAuthenticated) }
    do {
      _ = try await sessions.authorized(provider: provider) { try await provider.signOut($0, scope: scope) }
    } catch let error as AuthError where error.isAuthenticationRequired {
      // The server already ended it; forgetting it locally is all that is left.
      result.notes.append("The server had already ended this session.")
    }
    switch (scope, target.provider) {
    case (.others, _):
      result.notes.append("Signed out of your other sessions; this one stays signed in.")
    case (.global, _):
      try sessions.save(session: nil)
      result.notes.append("Signed out everywhere: every session of this account has ended.")
    case (.local, .supabase):
      try sessions.save(session: nil)
      result.notes.append(
        "Signed out of this session only; other sessions stay signed in (--scope global ends them all).")
    case (.local, .firebase):
      try sessions.save(session: nil)
      result.notes.append(
        "Signed out: the session is forgotten here. Firebase has no sign-out call, so tokens already issued stay valid until they expire."
      )
    }
    return result
  }

  func refresh(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    let (provider, target) = try makeProvider(invocation, context)
    let session = try await context.sessions(for: target).refreshNow(provider: provider)
    var result = CommandResult(.refresh)
    result.session = session
    result.notes.append("Tokens refreshed.")
    return result
  }

  func status(_ invocation: Invocation, _ context: ShellContext) throws -> CommandResult {
    let target = try self.target(invocation, context)
    let sessions = context.sessions(for: target)
    // Without --show-tokens the tokens are not needed: a keyring stays locked.
    let session = try invocation.output(.showTokens) ? sessions.storedSession() : sessions.storedSummary()
    var result = CommandResult(.status)
    result.status = StatusInfo(
      provider: target.provider.rawValue, profile: target.profile, url: target.url, signedIn: session != nil)
    let location = sessions.location
    result.status?.sessionStore = location.kind.rawValue
    result.status?.sessionLocation = location.place
    if let why = location.unreadable, session != nil {
      result.status?.sessionUnreadable = why
      result.notes.append("The session's tokens cannot be read: \(why).")
    }
    result.session = session
    result.notes += target.environmentNotes
    return result
  }

  func inbox(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    var email = (invocation[.inboxAddress] ?? "").trimmingWhitespace
    if email.hasPrefix("+") {
      email = try Self.phoneNumber(email, flag: "inbox")
    } else if let problem = Validator.validate(.init(email: email, requirePassword: false)) {
      throw problem
    }
    let (provider, _) = try makeProvider(invocation, context)
    guard let message = try await provider.latestMail(to: email) else {
      throw AuthError(
        .noMail, message: email.hasPrefix("+") ? "No code texted to \(email) yet." : "No mail to \(email) yet.")
    }
    var result = CommandResult(.inbox)
    result.inbox = message
    return result
  }
}
