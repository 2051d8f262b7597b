import AuthCore
import Essentials

struct UserDeleteCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    if try isBulk(invocation) {
      return try await bulkChange(
        invocation, context,
        BulkAction(
          verb: invocation[.soft] ? "soft-delete" : "delete", done: invocation[.soft] ? "Soft-deleted" : "Deleted",
          requires: .delete(soft: invocation[.soft]), goneMeansDone: true,
          apply: { [soft = invocation[.soft]] provider, user, attempt in
            do {
              try await provider.delete(user, soft: soft)
            } catch let error as AuthError where error.code == .userNotFound && attempt > 1 {
              // The attempt that timed out went through: the account is gone, as asked.
            }
          }))
    }
    return try await change(invocation, context, requires: .delete(soft: invocation[.soft])) { step, result in
      let soft = invocation[.soft]
      try await step.provider.delete(step.user, soft: soft)
      result.notes.append(
        soft
          ? "Soft-deleted \(step.who) (\(step.user.id)); its e-mail address is free again."
          : "Deleted \(step.who) (\(step.user.id)).")
      return step.user
    }
  }
}
