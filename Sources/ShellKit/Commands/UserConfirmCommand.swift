import AuthCore
import Essentials

struct UserConfirmCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    if try isBulk(invocation) {
      return try await bulkChange(
        invocation, context,
        BulkAction(
          verb: "confirm the e-mail address of", done: "Confirmed the e-mail address of",
          already: { $0.confirmed ? "Already confirmed; nothing changed." : nil },
          apply: { provider, user, _ in _ = try await provider.confirmEmail(user) }))
    }
    return try await change(invocation, context) { step, result in
      let changed = try await step.provider.confirmEmail(step.user)
      result.notes.append(
        step.user.confirmed
          ? "\(step.who) was already confirmed; nothing changed." : "Confirmed the e-mail address of \(step.who).")
      return changed
    }
  }
}
