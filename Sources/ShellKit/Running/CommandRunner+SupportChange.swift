import AuthCore
import Essentials

/// The account a change command acts on, and where its sentence goes.
struct ChangeStep {
  let provider: any AdminProvider
  let user: AdminUser
  /// The account's e-mail address, or its id when it has none.
  var who: String { user.email.isEmpty ? user.id : user.email }
}

/// The support commands that grant access to an account or change it (the row's `access`). The
/// rails are the same for all, in order: a `readonly` profile is refused before anything is
/// sent; the account is looked up; a command that grants or destroys asks "type the e-mail to
/// confirm" (or needs `--yes`); the handler makes the change or mints the link; one audit entry
/// records the outcome, also when it failed.
extension CommandRunner {
  /// Runs `body` on the account named by EMAIL inside the rails. `body` returns the result with
  /// its sentence; the account after the change is put in `lookups` unless `body` did.
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
      if result.lookups.isEmpty { result.lookups = [UserLookup(query: subject, user: changed)] }
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

  func createUser(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    try await guarded(invocation, context, creating: true) { provider, subject, _, account in
      let password = try PasswordSource(invocation: invocation, context: context).read(confirm: true)?.password
      if let password { context.redactor.register(password) }
      let user = try await provider.createUser(
        email: subject, password: password, confirmed: invocation[.confirmed], name: invocation[.accountName])
      account = user
      var result = CommandResult(command: invocation.spec.name)
      result.lookups = [UserLookup(query: subject, user: user)]
      result.notes.append(Self.createdSentence(user, password: password != nil))
      context.noteEmail(user.email)
      return result
    }
  }

  /// `user link recovery|confirm EMAIL`: a link to hand over; no mail is sent. The link is not
  /// registered with the redactor: showing it is the point of the command.
  func makeLink(_ invocation: Invocation, _ context: ShellContext, kind: AdminLinkKind) async throws -> CommandResult {
    try await change(invocation, context) { step, result in
      result.link = try await step.provider.link(kind, for: step.user)
      result.lookups = [UserLookup(query: step.user.email, user: step.user)]
      return step.user
    }
  }

  func confirmEmail(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    if try isBulk(invocation) {
      return try await bulkChange(
        invocation, context,
        BulkAction(
          verb: "confirm the e-mail address of", done: "Confirmed the e-mail address of",
          already: { $0.confirmed ? "Already confirmed; nothing changed." : nil },
          apply: { provider, user, _ in _ = try await provider.confirmEmail(user) }))
    }
    return try await change(invocation, context) { step, result in
      let changed = try await step.provider.confirmEmail(step.user)
      result.notes.append(
        step.user.confirmed
          ? "\(step.who) was already confirmed; nothing changed." : "Confirmed the e-mail address of \(step.who).")
      return changed
    }
  }

  func resendConfirmation(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    if try isBulk(invocation) {
      return try await bulkChange(
        invocation, context,
        BulkAction(
          verb: "send the confirmation e-mail again to", done: "Sent the confirmation e-mail again to",
          requires: .resendConfirmation,
          retryTransient: false, apply: { provider, user, _ in try await provider.resendConfirmation(user) }))
    }
    return try await change(invocation, context, requires: .resendConfirmation) { step, result in
      try await step.provider.resendConfirmation(step.user)
      result.notes.append("Sent the confirmation e-mail to \(step.who) again.")
      return step.user
    }
  }

  func disable(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
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

  func enable(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
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

  func setPassword(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    try await change(invocation, context) { step, result in
      guard let (password, _) = try PasswordSource(invocation: invocation, context: context).read(confirm: true) else {
        throw AuthError(
          .passwordRequired, message: "Give the new password with --password-env, --password-stdin or at the prompt.")
      }
      context.redactor.register(password)
      let changed = try await step.provider.setPassword(step.user, to: password)
      let sign = step.user.hasPassword ? "" : "; it can now sign in with a password"
      result.notes.append("Set a new password for \(step.who)\(sign).")
      return changed
    }
  }

  func delete(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
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

  func signOutUser(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    if try isBulk(invocation) {
      return try await bulkChange(
        invocation, context,
        BulkAction(
          verb: "end every session of", done: "Ended every session of", requires: .signOut,
          apply: { provider, user, _ in try await provider.signOut(user) }))
    }
    return try await change(invocation, context, requires: .signOut) { step, result in
      try await step.provider.signOut(step.user)
      // Firebase revokes refresh tokens (validSince); ID tokens already out stay valid until they expire.
      if step.provider.kind != .firebase {
        result.notes.append("Ended every session of \(step.who); it must sign in again.")
      } else if await step.provider.signOutEndsRefreshTokens() {
        result.notes.append(
          "Revoked every refresh token of \(step.who): it must sign in again. ID tokens already issued stay valid up to 1 h unless the app checks revocation (verifyIdToken with checkRevoked)."
        )
      } else {
        result.notes.append(
          "Set the revocation time of \(step.who), but this emulator keeps its refresh tokens working (as the official Firebase emulator does); authsh's emulator ends them only with --like-production. Production ends them: the user must sign in again there."
        )
      }
      return step.user
    }
  }

  static func createdSentence(_ user: AdminUser, password: Bool) -> String {
    let state = user.confirmed ? "confirmed" : "not confirmed yet"
    let sign = password ? "" : "; it has no password (set one with 'authsh user set-password')"
    return "Created \(user.email) (\(user.id)), e-mail \(state)\(sign)."
  }
}
