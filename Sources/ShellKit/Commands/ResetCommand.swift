import AuthCore

struct ResetCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
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
    result.payload = ResetOutput(email: email)
    result.notes.append("Sent a password-reset e-mail to \(email).")
    if pkce != nil { result.notes.append(Self.pkceResetNote) }
    if provider.kind == .supabase {
      result.notes.append("Supabase does not say whether the address has an account; no e-mail arrives if it has none.")
    }
    return result
  }
}
