import AuthCore
import Essentials

/// The support commands (`user …`, `diagnose`, `audit`): the admin API of the target's backend.
/// Reads are in `+SupportRead`; commands that grant access or change accounts (readonly refusal,
/// confirmation, audit: `SupportGuard`, from the row's `access`) in `+SupportChange`.
extension Command {
  /// The admin provider for `target`, with the credential's secrets registered with the redactor.
  func makeAdminProvider(_ invocation: Invocation, _ context: ShellContext, target: Target) throws -> any AdminProvider
  {
    guard let make = context.makeAdminProvider else {
      throw AuthError(.notSupported, message: "Admin commands are not available here.")
    }
    let credential = try AdminCredential.resolve(
      for: target, environment: context.environment, keyring: context.secretStore)
    for secret in credential.secrets { context.redactor.register(secret) }
    return make(target, credential, trace(invocation, context))
  }

  func makeAdminProvider(_ invocation: Invocation, _ context: ShellContext) throws -> (any AdminProvider, Target) {
    let target = try target(invocation, context)
    return (try makeAdminProvider(invocation, context, target: target), target)
  }

  /// The EMAIL argument, trimmed, or a usage error. With `kind`, the argument names an existing
  /// account: text that is no address, id or phone number there is refused before anything is sent.
  func accountArgument(_ invocation: Invocation, kind: ProviderKind?) throws -> String {
    let text = (invocation[.user] ?? "").trimmingWhitespace
    guard !text.isEmpty else {
      throw AuthError(.usage, message: "Which account? Give its e-mail address, user id or E.164 phone number.")
    }
    // The same rule as each line of `--from FILE` (`BatchInput.entry`): nothing is sent for it.
    if text.contains("@"), !Validator.isAccountAddress(text) {
      throw AuthError(.validationFailed, message: "'\(BatchInput.shown(text))' is not an e-mail address.")
    }
    if let kind, UserReference.parse(text, for: kind) == nil { throw UserReference.refusal(text, for: kind) }
    return text
  }

  /// The account named by the EMAIL argument, or `user_not_found` (also for a soft-deleted
  /// account, which nothing can change, unless `allowDeleted`).
  func requireUser(_ invocation: Invocation, _ provider: any AdminProvider, allowDeleted: Bool = false) async throws
    -> AdminUser
  {
    let text = try accountArgument(invocation, kind: provider.kind)
    guard let user = try await provider.user(UserReference(text)) else {
      throw AuthError(.userNotFound, message: "No account for \(text).")
    }
    if let deletedAt = user.deletedAt, !allowDeleted {
      throw AuthError(
        .userNotFound, message: "The account \(text) was deleted at \(deletedAt) (soft delete); it cannot be changed.")
    }
    return user
  }
}
