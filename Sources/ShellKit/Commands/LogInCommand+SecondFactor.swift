import AuthCore

extension LogInCommand {
  /// The second step of a sign-in: the factor, a code, and once more with a fresh challenge when
  /// the first has expired. `renew` makes a new pending sign-in (Firebase's pending credential).
  func secondStep(
    _ pending: PendingSecondFactor, provider: any AuthProvider, _ invocation: Invocation, _ context: ShellContext,
    renew: () async throws -> PendingSecondFactor?
  ) async throws -> AuthSession {
    let source = SecondFactorSource(invocation: invocation, context: context)
    var pending = pending
    let factor = try source.choose(from: pending.factors)
    var asked = 0
    while true {
      asked += 1
      let code = try source.code(for: pending.email)
      do {
        return try await provider.finishSignIn(pending, factor: factor, code: code)
      } catch let error as AuthError where asked == 1 && Self.isExpiredChallenge(error) {
        if pending.pendingCredential != nil, let fresh = try await renew() { pending = fresh }
      }
    }
  }

  /// A challenge (Supabase) or pending credential (Firebase) too old to verify: asked again once.
  static func isExpiredChallenge(_ error: AuthError) -> Bool {
    ["mfa_challenge_expired", "INVALID_MFA_PENDING_CREDENTIAL", "SESSION_EXPIRED"].contains(error.providerCode ?? "")
  }
}
