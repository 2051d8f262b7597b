import AuthCore

/// `user resend EMAIL` (or `--from FILE`): sends the confirmation e-mail again.
struct UserResendCommand: AccountChangeCommand {
  func action(_ invocation: Invocation) -> BulkAction {
    BulkAction(
      verb: "send the confirmation e-mail again to", done: "Sent the confirmation e-mail again to",
      requires: .resendConfirmation, retryTransient: false,
      apply: { provider, user, _ in
        try await provider.resendConfirmation(user)
        return user
      })
  }

  func sentences(_ step: ChangeStep, changed: AdminUser, _ invocation: Invocation) -> [String] {
    ["Sent the confirmation e-mail to \(step.who) again."]
  }
}
