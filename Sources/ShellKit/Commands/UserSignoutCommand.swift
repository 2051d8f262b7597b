import AuthCore

/// `user signout EMAIL` (or `--from FILE`): ends every session of the account.
struct UserSignoutCommand: AccountChangeCommand {
  func action(_ invocation: Invocation) -> BulkAction {
    BulkAction(
      verb: "end every session of", done: "Ended every session of", requires: .signOut,
      apply: { provider, user, _ in
        try await provider.signOut(user)
        return user
      })
  }

  func sentences(_ step: ChangeStep, changed: AdminUser, _ invocation: Invocation) async -> [String] {
    // Firebase revokes refresh tokens (validSince); ID tokens already out stay valid until they expire.
    if step.provider.kind != .firebase {
      return ["Ended every session of \(step.who); it must sign in again."]
    } else if await step.provider.signOutEndsRefreshTokens() {
      return [
        "Revoked every refresh token of \(step.who): it must sign in again. ID tokens already issued stay valid up to 1 h unless the app checks revocation (verifyIdToken with checkRevoked)."
      ]
    } else {
      return [
        "Set the revocation time of \(step.who), but this emulator keeps its refresh tokens working (as the official Firebase emulator does); authsh's emulator ends them only with --like-production. Production ends them: the user must sign in again there."
      ]
    }
  }
}
