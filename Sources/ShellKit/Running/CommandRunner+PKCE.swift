import AuthCore

/// PKCE (`flow = "pkce"` in a Supabase profile): `reset` and `login --link` send a challenge, so
/// the mailed link comes back to the app with `?code=`; authsh trades that code with the
/// verifier it kept (a reset's in the profile's 0600 state, a `login --link`'s in memory).
extension CommandRunner {
  /// A fresh pair when the profile runs PKCE, else nil.
  static func pkcePair(for target: Target) -> PKCEPair? {
    target.provider == .supabase && target.pkce ? PKCEPair.generate() : nil
  }

  static let pkceResetNote =
    "The link comes back with ?code=: finish with `authsh reset confirm LINK` here within 5 minutes "
    + "(GoTrue keeps a PKCE flow that long, and only this machine holds its code verifier)."

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

  /// `login --link`: the session from what was pasted or read from the outbox; a `?code=` link
  /// needs the verifier of the mail this command asked for.
  func signInWithLink(
    email: String, codeOrLink: String, pkce: PKCEPair?, provider: any AuthProvider
  ) async throws -> SignInStep {
    guard provider.kind == .supabase, let authCode = PKCEPair.authCode(inLink: codeOrLink) else {
      return try await provider.signInWithLink(email: email, codeOrLink: codeOrLink)
    }
    guard let pkce else {
      throw AuthError(
        .invalidCode, message: "This link carries a PKCE code, which only a sign-in started with a challenge can use.",
        hint: "Set flow = \"pkce\" in the profile, or paste the link from the mail itself.")
    }
    return try await provider.signInWithLink(email: email, authCode: authCode, verifier: pkce.verifier)
  }
}
