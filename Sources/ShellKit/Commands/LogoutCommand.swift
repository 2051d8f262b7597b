import AuthCore

struct LogoutCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
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
}
