import AuthCore
import Essentials

struct UserEnableCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    if try isBulk(invocation) {
      return try await bulkChange(
        invocation, context,
        BulkAction(
          verb: "enable", done: "Enabled", already: { $0.disabled ? nil : "Not disabled; nothing changed." },
          apply: { provider, user, _ in _ = try await provider.enable(user) }))
    }
    return try await change(invocation, context) { step, result in
      let changed = try await step.provider.enable(step.user)
      result.notes.append(
        step.user.disabled
          ? "Enabled \(step.who): it can sign in again." : "\(step.who) was not disabled; it can sign in.")
      return changed
    }
  }
}
