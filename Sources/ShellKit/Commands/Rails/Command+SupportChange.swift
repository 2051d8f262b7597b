import AuthCore
import Essentials

/// The support commands that grant access to an account or change it (the row's `access`). The
/// rails are the same for all, in order: a `readonly` profile is refused before anything is
/// sent; the account is looked up; a command that grants or destroys asks "type the e-mail to
/// confirm" (or needs `--yes`); the handler makes the change or mints the link; one audit entry
/// records the outcome, also when it failed.
extension Command {
  /// Runs `body` on the account named by EMAIL inside the rails. `body` returns the result with
  /// its sentence; the account after the change is its output unless `body` gave one.
  /// `requires`: what the backend must support, checked before anyone is asked to confirm.
  func change(
    _ invocation: Invocation, _ context: ShellContext, requires: AdminChange? = nil,
    _ body: (ChangeStep, inout CommandResult) async throws -> AdminUser
  ) async throws -> CommandResult {
    try await guarded(invocation, context) { provider, subject, guardRails, account in
      let user = try await requireUser(invocation, provider)
      account = user
      context.noteEmail(user.email)
      if let requires, let refusal = provider.unsupported(requires, for: user) { throw refusal }
      try guardRails.confirm(user)
      var result = CommandResult(command: invocation.spec.name)
      let changed = try await body(ChangeStep(provider: provider, user: user), &result)
      if result.payload == nil { result.payload = AccountsOutput(lookups: [UserLookup(query: subject, user: changed)]) }
      return result
    }
  }

  /// The readonly refusal and the audit entry around `body`, which looks the account up (or
  /// creates it) and sets `account` as soon as it knows it.
  func guarded(
    _ invocation: Invocation, _ context: ShellContext, creating: Bool = false,
    _ body: (any AdminProvider, String, SupportGuard, inout AdminUser?) async throws -> CommandResult
  ) async throws -> CommandResult {
    let target = try target(invocation, context)
    let guardRails = SupportGuard(invocation: invocation, context: context, target: target)
    try guardRails.checkWritable()
    let provider = try makeAdminProvider(invocation, context, target: target)
    // An account to create is any address; one to change is looked up (address, id or number).
    let subject = try accountArgument(invocation, kind: creating ? nil : target.provider)
    // Fails closed: no line in the log, no change sent.
    try guardRails.recordAttempt(email: subject)
    var account: AdminUser?
    do {
      var result = try await body(provider, subject, guardRails, &account)
      do {
        try guardRails.record(user: account, email: subject, error: nil)
      } catch let error as AuthError {
        // The change was made but its outcome is not in the log: a failure the caller sees.
        result.error = AuthError(
          .auditUnavailable,
          message:
            "'\(invocation.spec.name)' was applied, but its outcome could not be recorded in the audit log: \(error.message)",
          hint: error.hint)
      }
      return result
    } catch {
      let failure = (error as? AuthError) ?? AuthError(error is CancellationError ? .cancelled : .providerError)
      try? guardRails.record(user: account, email: subject, error: failure)
      throw error
    }
  }
}
