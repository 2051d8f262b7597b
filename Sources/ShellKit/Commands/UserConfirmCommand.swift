import AuthCore

/// `user confirm EMAIL` (or `--from FILE`): marks the e-mail address confirmed.
struct UserConfirmCommand: AccountChangeCommand {
  func action(_ invocation: Invocation) -> BulkAction {
    BulkAction(
      verb: "confirm the e-mail address of", done: "Confirmed the e-mail address of",
      already: { $0.confirmed ? "Already confirmed; nothing changed." : nil },
      apply: { provider, user, _ in try await provider.confirmEmail(user) })
  }

  func sentences(_ step: ChangeStep, changed: AdminUser, _ invocation: Invocation) -> [String] {
    [
      step.user.confirmed
        ? "\(step.who) was already confirmed; nothing changed." : "Confirmed the e-mail address of \(step.who)."
    ]
  }
}
