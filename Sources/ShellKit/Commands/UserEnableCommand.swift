import AuthCore

/// `user enable EMAIL` (or `--from FILE`): lifts a ban.
struct UserEnableCommand: AccountChangeCommand {
  func action(_ invocation: Invocation) -> BulkAction {
    BulkAction(
      verb: "enable", done: "Enabled", already: { $0.disabled ? nil : "Not disabled; nothing changed." },
      apply: { provider, user, _ in try await provider.enable(user) })
  }

  func sentences(_ step: ChangeStep, changed: AdminUser, _ invocation: Invocation) -> [String] {
    [
      step.user.disabled
        ? "Enabled \(step.who): it can sign in again." : "\(step.who) was not disabled; it can sign in."
    ]
  }
}
