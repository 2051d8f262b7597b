import AuthCore

/// `user delete EMAIL [--soft]` (or `--from FILE`).
struct UserDeleteCommand: AccountChangeCommand {
  func action(_ invocation: Invocation) -> BulkAction {
    let soft = invocation[.soft]
    return BulkAction(
      verb: soft ? "soft-delete" : "delete", done: soft ? "Soft-deleted" : "Deleted", requires: .delete(soft: soft),
      goneMeansDone: true,
      apply: { provider, user, attempt in
        do {
          try await provider.delete(user, soft: soft)
        } catch let error as AuthError where error.code == .userNotFound && attempt > 1 {
          // The attempt that timed out went through: the account is gone, as asked.
        }
        return user
      })
  }

  func sentences(_ step: ChangeStep, changed: AdminUser, _ invocation: Invocation) -> [String] {
    [
      invocation[.soft]
        ? "Soft-deleted \(step.who) (\(step.user.id)); its e-mail address is free again."
        : "Deleted \(step.who) (\(step.user.id))."
    ]
  }
}
