import AuthCore

extension ResetConfirmCommand {
  /// The new password from a mailed link or code, or from a `?code=` link with the verifier of
  /// the reset this profile sent (the newest one, or the one for `--email`).
  func confirmReset(
    codeOrLink: String, email: String?, newPassword: String, provider: any AuthProvider, sessions: SessionManager
  ) async throws -> AuthSession {
    guard provider.kind == .supabase, let authCode = PKCEPair.authCode(inLink: codeOrLink) else {
      return try await provider.confirmPasswordReset(codeOrLink: codeOrLink, email: email, newPassword: newPassword)
    }
    guard let pending = try sessions.state().newestPKCEFlow(.recovery, email: email) else {
      throw AuthError(
        .invalidCode,
        message:
          "This link carries a PKCE code, and no reset sent from here\(email.map { " to \($0)" } ?? "") is waiting for one.",
        hint:
          "Only the authsh that ran `reset` holds the code's verifier: run `authsh reset EMAIL` with flow = \"pkce\" in the profile, then use the link of that mail."
      )
    }
    return try await provider.confirmPasswordReset(
      authCode: authCode, verifier: pending.flow.verifier, newPassword: newPassword)
  }
}
