import AuthCore
import Essentials

struct UserSignoutCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    if try isBulk(invocation) {
      return try await bulkChange(
        invocation, context,
        BulkAction(
          verb: "end every session of", done: "Ended every session of", requires: .signOut,
          apply: { provider, user, _ in try await provider.signOut(user) }))
    }
    return try await change(invocation, context, requires: .signOut) { step, result in
      try await step.provider.signOut(step.user)
      // Firebase revokes refresh tokens (validSince); ID tokens already out stay valid until they expire.
      if step.provider.kind != .firebase {
        result.notes.append("Ended every session of \(step.who); it must sign in again.")
      } else if await step.provider.signOutEndsRefreshTokens() {
        result.notes.append(
          "Revoked every refresh token of \(step.who): it must sign in again. ID tokens already issued stay valid up to 1 h unless the app checks revocation (verifyIdToken with checkRevoked)."
        )
      } else {
        result.notes.append(
          "Set the revocation time of \(step.who), but this emulator keeps its refresh tokens working (as the official Firebase emulator does); authsh's emulator ends them only with --like-production. Production ends them: the user must sign in again there."
        )
      }
      return step.user
    }
  }
}
