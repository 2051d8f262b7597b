import AuthCore

extension LogInCommand {
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
