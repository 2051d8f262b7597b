import AuthCore
import Foundation

/// The support commands that change an account. In order: a `readonly` profile is refused before
/// anything is sent; the account is looked up; a destructive command asks "type the e-mail to
/// confirm" (or needs `--yes`); the change is made; one audit entry records the outcome, also
/// when it failed.
extension CommandRunner {
  func change(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    let target = try target(invocation, context)
    let guardRails = SupportGuard(invocation: invocation, context: context, target: target)
    try guardRails.checkWritable()
    let provider = try makeAdminProvider(invocation, context, target: target)
    let subject = try accountArgument(invocation)
    var account: AdminUser?
    do {
      var result = try await perform(invocation, context, provider: provider, subject: subject, guard: guardRails, account: &account)
      do {
        try guardRails.record(user: account, email: subject, error: nil)
      } catch let error as AuthError {
        // The change was made: say so, and that it is not in the log.
        result.notes.append("warning: not recorded in the audit log: \(error.message)")
      }
      return result
    } catch {
      let failure = (error as? AuthError) ?? AuthError(error is CancellationError ? .cancelled : .providerError)
      try? guardRails.record(user: account, email: subject, error: failure)
      throw error
    }
  }

  private func perform(
    _ invocation: Invocation, _ context: ShellContext, provider: any AdminProvider, subject: String,
    guard guardRails: SupportGuard, account: inout AdminUser?
  ) async throws -> CommandResult {
    let name = invocation.spec.name
    var result = CommandResult(command: name)
    if name == "user create" {
      let password = try PasswordSource(invocation: invocation, context: context).read(confirm: true)?.password
      if let password { context.redactor.register(password) }
      let user = try await provider.createUser(
        email: subject, password: password, confirmed: invocation.has("--confirmed"), name: invocation.value("--name"))
      account = user
      result.lookups = [UserLookup(query: subject, user: user)]
      result.notes.append(Self.createdSentence(user, password: password != nil))
      context.noteEmail(user.email)
      return result
    }
    let user = try await requireUser(invocation, provider)
    account = user
    context.noteEmail(user.email)
    try guardRails.confirm(user)
    let who = user.email.isEmpty ? user.id : user.email
    var changed = user
    switch name {
    case "user confirm":
      changed = try await provider.confirmEmail(user)
      result.notes.append(user.confirmed ? "\(who) was already confirmed; nothing changed." : "Confirmed the e-mail address of \(who).")
    case "user resend":
      try await provider.resendConfirmation(user)
      result.notes.append("Sent the confirmation e-mail to \(who) again.")
    case "user disable":
      let seconds = try invocation.value("--until").map { text -> Int in
        guard let seconds = Durations.longSeconds(text) else {
          throw AuthError(.usage, message: "--until takes a duration such as 24h or 7d, not '\(text)'")
        }
        return seconds
      }
      changed = try await provider.disable(user, forSeconds: seconds)
      let until = changed.disabledUntil.map { " until \($0)" } ?? (seconds.map { " for \(Durations.describe($0))" } ?? "")
      result.notes.append("Disabled \(who)\(until): it cannot sign in.")
    case "user enable":
      changed = try await provider.enable(user)
      result.notes.append(user.disabled ? "Enabled \(who): it can sign in again." : "\(who) was not disabled; it can sign in.")
    case "user set-password":
      guard let (password, _) = try PasswordSource(invocation: invocation, context: context).read(confirm: true) else {
        throw AuthError(.passwordRequired, message: "Give the new password with --password-env, --password-stdin or at the prompt.")
      }
      context.redactor.register(password)
      changed = try await provider.setPassword(user, to: password)
      result.notes.append("Set a new password for \(who)\(user.hasPassword ? "" : "; it can now sign in with a password").")
    case "user delete":
      let soft = invocation.has("--soft")
      try await provider.delete(user, soft: soft)
      result.notes.append(soft ? "Soft-deleted \(who) (\(user.id)); its e-mail address is free again." : "Deleted \(who) (\(user.id)).")
      result.lookups = [UserLookup(query: subject, user: user)]
      return result
    case "user signout":
      try await provider.signOut(user)
      // Firebase revokes refresh tokens (validSince); ID tokens already out stay valid until they expire.
      result.notes.append(provider.kind == .firebase
        ? "Revoked every refresh token of \(who): it must sign in again. ID tokens already issued stay valid up to 1 h unless the app checks revocation (verifyIdToken with checkRevoked)."
        : "Ended every session of \(who); it must sign in again.")
    default:
      throw AuthError(.usage, message: "'\(name)' is not a command this surface runs here")
    }
    result.lookups = [UserLookup(query: subject, user: changed)]
    return result
  }

  static func createdSentence(_ user: AdminUser, password: Bool) -> String {
    let state = user.confirmed ? "confirmed" : "not confirmed yet"
    let sign = password ? "" : "; it has no password (set one with 'authsh user set-password')"
    return "Created \(user.email) (\(user.id)), e-mail \(state)\(sign)."
  }
}
