import AuthCore
import Foundation

/// The support commands (`user …`, `diagnose`, `audit`): the admin API of the target's backend.
/// Reads are in `+SupportRead`, changes (readonly refusal, confirmation, audit) in `+SupportChange`.
extension CommandRunner {
  func support(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    switch invocation.spec.name {
    case "audit": return try readAudit(invocation, context)
    case "user show": return try await showUsers(invocation, context)
    case "user list": return try await listUsers(invocation, context)
    case "diagnose": return try await diagnose(invocation, context)
    case "user link recovery", "user link confirm": return try await makeLink(invocation, context)
    default:
      guard invocation.spec.mutating else {
        throw AuthError(.usage, message: "'\(invocation.spec.name)' is not a command this surface runs here")
      }
      return try await change(invocation, context)
    }
  }

  /// The admin provider for `target`, with the credential's secrets registered with the redactor.
  func makeAdminProvider(_ invocation: Invocation, _ context: ShellContext, target: Target) throws -> any AdminProvider {
    guard let make = context.makeAdminProvider else {
      throw AuthError(.notSupported, message: "Admin commands are not available here.")
    }
    let credential = try AdminCredential.resolve(for: target, environment: context.environment)
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

  /// `user link recovery|confirm EMAIL`: a link to hand over; no mail is sent. The link is not
  /// registered with the redactor: showing it is the point of the command.
  func makeLink(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    let (provider, _) = try makeAdminProvider(invocation, context)
    let user = try await requireUser(invocation, provider)
    var result = CommandResult(command: invocation.spec.name)
    result.link = try await provider.link(invocation.spec.name.hasSuffix("recovery") ? .recovery : .confirm, for: user)
    result.lookups = [UserLookup(query: user.email, user: user)]
    context.noteEmail(user.email)
    return result
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
    var since: Int?
    if let text = invocation.value("--since") {
      guard let seconds = Durations.longSeconds(text) else {
        throw AuthError(.usage, message: "--since takes a duration such as 24h or 7d, not '\(text)'")
      }
      since = context.clock.unixNow - Int(seconds)
    }
    var result = CommandResult(command: "audit")
    guard let log = context.auditLog else {
      result.audit = []
      return result
    }
    result.audit = try log.entries(since: since)
    return result
  }
}
