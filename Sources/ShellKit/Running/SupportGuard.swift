import AuthCore
import Essentials

/// The safety rails of admin commands, all derived from what the command does to the account
/// (`Invocation.access`, from its row): `readonly` profiles refuse grants and changes, grants and
/// destructive changes need "type the e-mail to confirm" (or `--yes`), and grants and changes
/// go to the audit log.
package struct SupportGuard: Sendable {
  let invocation: Invocation
  let context: ShellContext
  let target: Target

  package init(invocation: Invocation, context: ShellContext, target: Target) {
    self.invocation = invocation
    self.context = context
    self.target = target
  }

  /// Refuses a command that grants access or changes accounts on a `readonly` profile. Call
  /// before anything is sent.
  package func checkWritable() throws {
    let access = invocation.access
    guard access.refusedWhenReadonly, target.readonly else { return }
    let what = access == .grant ? "gives access to an account" : "changes accounts"
    throw AuthError(
      .readonlyProfile,
      message: "The profile '\(target.profile)' is read-only: '\(invocation.spec.name)' \(what) and was not sent.",
      hint: "Use a profile without readonly = true for changes.")
  }

  /// For grants and destructive changes: `--yes`, or the account's e-mail typed back on a
  /// terminal. Without a terminal and without `--yes`: a usage error (exit 64), nothing sent.
  package func confirm(_ user: AdminUser) throws {
    guard invocation.access.needsConfirmation, !invocation[.yes], !context.confirmedByScript else { return }
    guard let prompter = context.linePrompter else {
      let what = invocation.access == .grant ? "gives access to" : "changes"
      throw AuthError(
        .usage,
        message:
          "'\(invocation.spec.name)' \(what) \(user.email) and needs confirmation: add --yes (there is no terminal to ask)."
      )
    }
    let action = invocation.spec.name
    guard
      let answer = prompter.readLine(
        prompt: "\(action) \(user.email) (\(user.id)) on \(target.profile). Type the e-mail address to confirm: ")
    else { throw AuthError.cancelledBeforeSending() }
    guard answer.trimmingWhitespace.lowercased() == user.email.lowercased() else {
      throw AuthError.cancelledBeforeSending(
        "Not confirmed ('\(answer.trimmingWhitespace)' is not \(user.email)); nothing was changed.")
    }
  }

  /// A batch (`--from FILE`): one question for all of it, "type 300 to confirm", whatever the
  /// command (a list can hold anyone); `--yes` without a terminal, else a usage error (exit 64).
  package func confirmBatch(count: Int) throws {
    guard !invocation[.yes], !context.confirmedByScript else { return }
    let accounts = count == 1 ? "1 account" : "\(count) accounts"
    guard let prompter = context.linePrompter else {
      throw AuthError(
        .usage,
        message:
          "'\(invocation.spec.name)' changes \(accounts) and needs confirmation: add --yes (there is no terminal to ask)."
      )
    }
    let prompt = "\(invocation.spec.name) \(accounts) on \(target.profile). Type \(count) to confirm: "
    guard let answer = prompter.readLine(prompt: prompt) else { throw AuthError.cancelledBeforeSending() }
    guard answer.trimmingWhitespace == String(count) else {
      throw AuthError.cancelledBeforeSending(
        "Not confirmed ('\(answer.trimmingWhitespace)' is not \(count)); nothing was changed.")
    }
  }

  /// A batch checks once, before anything is sent, that its audit lines can be written.
  package func checkAuditWritable() throws {
    guard invocation.access.isAudited, let log = context.auditLog else { return }
    do {
      try log.checkWritable()
    } catch let error as AuthError {
      throw AuthError(
        .auditUnavailable, message: "'\(invocation.spec.name)' was not sent: \(error.message)", hint: error.hint)
    }
  }

  /// Before anything is sent: the line saying the change is being attempted. Throws
  /// `audit_unavailable` (exit 74) when the log cannot be written: the change is then not sent.
  package func recordAttempt(email: String?) throws {
    guard invocation.access.isAudited, let log = context.auditLog else { return }
    do {
      try log.checkWritable()
      try log.append(entry(user: nil, email: email, outcome: "started"))
    } catch let error as AuthError {
      throw AuthError(
        .auditUnavailable, message: "'\(invocation.spec.name)' was not sent: \(error.message)", hint: error.hint)
    }
  }

  /// What the log keeps of an address as typed: a refused argument can be any length (a 70 KB
  /// paste), an e-mail address is at most 254 characters.
  static let recordedLength = 254

  static func capped(_ text: String) -> String {
    // No more characters than bytes: a short text needs no count of its characters.
    guard text.utf8.count > recordedLength else { return text }
    return text.count > recordedLength ? String(text.prefix(recordedLength - 1)) + "…" : text
  }

  /// Appends the audit line of a grant or change (whatever the outcome). Never a secret: ids,
  /// e-mail addresses, the command name and the outcome code only. Interrupted, the change may
  /// have reached the server: the line says so.
  package func record(user: AdminUser?, email: String?, error: AuthError?) throws {
    guard invocation.access.isAudited, let log = context.auditLog else { return }
    try log.append(Self.finished(entry(user: user, email: email, outcome: "ok"), error: error))
  }

  /// The audit lines of a batch's outcomes (an import), appended in one write.
  package func recordAll(
    _ outcomes: [(id: String?, email: String?, error: AuthError?)], through writer: (any AuditBatchWriter)? = nil
  ) throws {
    guard invocation.access.isAudited, let log = context.auditLog else { return }
    // The time, profile, backend and operator are the batch's: worked out once.
    let template = entry(user: nil, email: nil, outcome: "ok")
    let entries = outcomes.map { id, email, error in
      var line = template
      line.targetId = id.map(Self.capped)
      line.targetEmail = email.map(Self.capped)
      return Self.finished(line, error: error)
    }
    if let writer { try writer.appendAll(entries) } else { try log.appendAll(entries) }
  }

  /// Before a batch's accounts are sent (an import's chunk): a `started` line for each, in one
  /// write. Throws `audit_unavailable` when the log cannot take them: the accounts are then not sent.
  package func recordStarted(_ accounts: [(id: String?, email: String?)]) throws {
    guard invocation.access.isAudited, let log = context.auditLog, !accounts.isEmpty else { return }
    let template = entry(user: nil, email: nil, outcome: "started")
    let entries = accounts.map { id, email in
      var line = template
      line.targetId = id.map(Self.capped)
      line.targetEmail = email.map(Self.capped)
      return line
    }
    do {
      try log.appendAll(entries)
    } catch let error as AuthError {
      throw AuthError(
        .auditUnavailable, message: "'\(invocation.spec.name)' stopped sending: \(error.message)", hint: error.hint)
    }
  }

  /// The writer of a batch's outcome lines, opened once for the batch (nil: the command is not
  /// audited).
  package func auditWriter() throws -> (any AuditBatchWriter)? {
    guard invocation.access.isAudited, let log = context.auditLog else { return nil }
    return try log.batchWriter()
  }

  /// A change's outcome: its error's code, or "ok". A cancelled change may still have reached the
  /// backend (the request was on its way), and its line says so.
  private static func finished(_ entry: AuditEntry, error: AuthError?) -> AuditEntry {
    var entry = entry
    entry.outcome = error.map { $0.code.rawValue } ?? "ok"
    if error?.code == .cancelled {
      entry.note = error?.neverSent == true ? "not confirmed: nothing was sent" : "may have been applied"
    }
    return entry
  }

  private func entry(user: AdminUser?, email: String?, outcome: String) -> AuditEntry {
    AuditEntry(
      time: CivilTime.iso8601(seconds: context.clock.unixNow), profile: target.profile,
      backend: BackendKey(target).canonical,
      command: invocation.spec.name, targetId: user?.id, targetEmail: (user?.email ?? email).map(Self.capped),
      outcome: outcome, operatorName: context.operatorName, note: nil)
  }
}
