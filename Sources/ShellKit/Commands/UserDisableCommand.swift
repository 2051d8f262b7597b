import AuthCore
import Essentials

/// `user disable EMAIL [--until SPAN]` (or `--from FILE`): the account cannot sign in.
struct UserDisableCommand: AccountChangeCommand {
  func action(_ invocation: Invocation) -> BulkAction {
    let seconds = invocation[.until]?.seconds
    return BulkAction(
      verb: "disable", done: "Disabled", requires: .disable(seconds: seconds),
      // A ban for a time is set again (from now); one for ever is kept as it is.
      already: { user in
        seconds == nil && user.disabled && user.disabledUntil == nil ? "Already disabled; nothing changed." : nil
      },
      apply: { provider, user, _ in try await provider.disable(user, forSeconds: seconds) })
  }

  func sentences(_ step: ChangeStep, changed: AdminUser, _ invocation: Invocation) -> [String] {
    let seconds = invocation[.until]?.seconds
    let until = changed.disabledUntil.map { " until \($0)" } ?? (seconds.map { " for \(Durations.describe($0))" } ?? "")
    return ["Disabled \(step.who)\(until): it cannot sign in."]
  }
}
