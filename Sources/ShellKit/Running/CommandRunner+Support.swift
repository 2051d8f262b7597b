import AuthCore
import Foundation

/// The support commands (`user …`, `diagnose`, `audit`): the admin API of the target's backend.
/// Reads are in `+SupportRead`; commands that grant access or change accounts (readonly refusal,
/// confirmation, audit: `SupportGuard`, from the row's `access`) in `+SupportChange`.
extension CommandRunner {
  /// The admin provider for `target`, with the credential's secrets registered with the redactor.
  func makeAdminProvider(_ invocation: Invocation, _ context: ShellContext, target: Target) throws -> any AdminProvider {
    guard let make = context.makeAdminProvider else {
      throw AuthError(.notSupported, message: "Admin commands are not available here.")
    }
    let credential = try AdminCredential.resolve(for: target, environment: context.environment, keyring: context.secretStore)
    for secret in credential.secrets { context.redactor.register(secret) }
    return make(target, credential, trace(invocation, context))
  }

  func makeAdminProvider(_ invocation: Invocation, _ context: ShellContext) throws -> (any AdminProvider, Target) {
    let target = try target(invocation, context)
    return (try makeAdminProvider(invocation, context, target: target), target)
  }

  /// The EMAIL argument, trimmed, or a usage error.
  func accountArgument(_ invocation: Invocation) throws -> String {
    let text = (invocation.argument("EMAIL") ?? "").trimmingWhitespace
    guard !text.isEmpty else { throw AuthError(.usage, message: "Which account? Give its e-mail address or user id.") }
    return text
  }

  /// The account named by the EMAIL argument, or `user_not_found`.
  func requireUser(_ invocation: Invocation, _ provider: any AdminProvider) async throws -> AdminUser {
    let text = try accountArgument(invocation)
    guard let user = try await provider.user(UserReference(text)) else {
      throw AuthError(.userNotFound, message: "No account for \(text).")
    }
    return user
  }

  /// `diagnose EMAIL`: the account, the project's settings and the outbox, judged by `Diagnosis`.
  func diagnose(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    let (provider, target) = try makeAdminProvider(invocation, context)
    let email = try accountArgument(invocation)
    let user = try await provider.user(UserReference(email))
    // Settings the backend will not tell (a service account without the config scope) are unknown, not fatal.
    let settings = try? await provider.settings()
    var result = CommandResult(command: "diagnose")
    result.diagnosis = Diagnosis.evaluate(
      email: email, user: user, provider: target.provider, settings: settings, now: context.clock.unixNow)
    if let user {
      result.lookups = [UserLookup(query: email, user: user)]
      context.noteEmail(user.email)
    }
    return result
  }

  /// `audit [--since DURATION]`: the local log of changes, oldest first.
  func readAudit(_ invocation: Invocation, _ context: ShellContext) throws -> CommandResult {
    let since = invocation[.since].map { context.clock.unixNow - $0.seconds }
    var result = CommandResult(command: "audit")
    guard let log = context.auditLog else {
      result.audit = []
      return result
    }
    let read = try log.read(since: since)
    result.audit = read.entries
    if !read.unreadableLines.isEmpty {
      let count = read.unreadableLines.count
      let numbers = read.unreadableLines.prefix(10).map(String.init).joined(separator: ", ") + (count > 10 ? ", …" : "")
      result.notes.append(
        "warning: \(count) line\(count == 1 ? "" : "s") of the audit log could not be read and \(count == 1 ? "is" : "are") not shown (line\(count == 1 ? "" : "s") \(numbers))")
    }
    return result
  }
}
