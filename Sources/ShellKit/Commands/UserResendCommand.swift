import AuthCore
import Essentials

struct UserResendCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    if try isBulk(invocation) {
      return try await bulkChange(
        invocation, context,
        BulkAction(
          verb: "send the confirmation e-mail again to", done: "Sent the confirmation e-mail again to",
          requires: .resendConfirmation,
          retryTransient: false, apply: { provider, user, _ in try await provider.resendConfirmation(user) }))
    }
    return try await change(invocation, context, requires: .resendConfirmation) { step, result in
      try await step.provider.resendConfirmation(step.user)
      result.notes.append("Sent the confirmation e-mail to \(step.who) again.")
      return step.user
    }
  }
}
