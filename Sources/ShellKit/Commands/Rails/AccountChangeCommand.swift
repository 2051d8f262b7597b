import AuthCore

/// A change command that takes one account or a batch (`--from FILE`). The change is written once,
/// as its `BulkAction`: a batch runs it on each account listed, one account runs it through the
/// same rails (readonly refusal, lookup, confirmation, audit) and says what happened in a
/// sentence of its own, which can name what the account was before.
protocol AccountChangeCommand: Command {
  /// The change, its words and its rails, for this line's flags (checked before anything is sent).
  func action(_ invocation: Invocation) throws -> BulkAction
  /// When one account needs no request (`user mfa reset` of an account without factors): why.
  func unchanged(_ step: ChangeStep, _ invocation: Invocation) -> String?
  /// What happened to one account: `step.user` as it was looked up, `changed` as the backend answered.
  func sentences(_ step: ChangeStep, changed: AdminUser, _ invocation: Invocation) async -> [String]
}

extension AccountChangeCommand {
  func unchanged(_ step: ChangeStep, _ invocation: Invocation) -> String? { nil }

  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let action = try action(invocation)
    if try isBulk(invocation) { return try await bulkChange(invocation, context, io, action) }
    return try await change(invocation, context, requires: action.requires) { step, result in
      if let unchanged = unchanged(step, invocation) {
        result.notes.append(unchanged)
        return step.user
      }
      let changed = try await action.apply(step.provider, step.user, 1)
      result.notes += await sentences(step, changed: changed, invocation)
      return changed
    }
  }
}
