import AuthCore
import Essentials

struct UserDisableCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    if try isBulk(invocation) {
      return try await bulkChange(
        invocation, context,
        BulkAction(
          verb: "disable", done: "Disabled", requires: .disable(seconds: invocation[.until]?.seconds),
          // A ban for a time is set again (from now); one for ever is kept as it is.
          already: { [seconds = invocation[.until]?.seconds] user in
            seconds == nil && user.disabled && user.disabledUntil == nil ? "Already disabled; nothing changed." : nil
          },
          apply: { [seconds = invocation[.until]?.seconds] provider, user, _ in
            _ = try await provider.disable(user, forSeconds: seconds)
          }))
    }
    return try await change(invocation, context, requires: .disable(seconds: invocation[.until]?.seconds)) {
      step, result in
      let seconds = invocation[.until]?.seconds
      let changed = try await step.provider.disable(step.user, forSeconds: seconds)
      let until =
        changed.disabledUntil.map { " until \($0)" } ?? (seconds.map { " for \(Durations.describe($0))" } ?? "")
      result.notes.append("Disabled \(step.who)\(until): it cannot sign in.")
      return changed
    }
  }
}
