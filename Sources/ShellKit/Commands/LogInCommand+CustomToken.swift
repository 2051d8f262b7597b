import AuthCore
import Essentials

extension LogInCommand {
  func logInWithCustomToken(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    if invocation[.accountEmail] != nil || PasswordSource(invocation: invocation, context: context).isExplicit
      || invocation[.link] || invocation[.remember] || invocation[.loginPhone] != nil
      || invocation.hasAny([FlagKey.totpSecretEnv, FlagKey.factor, FlagKey.mfaCode, FlagKey.mfaCodeEnv])
      || (invocation[.customToken] != nil && invocation[.customTokenEnv] != nil)
    {
      throw AuthError(
        .usage,
        message:
          "login --custom-token (or --custom-token-env) signs in with the token alone: leave out EMAIL, the password, --link, --phone, --remember and the second-factor flags, and give the token once."
      )
    }
    let token: String
    if let given = invocation[.customToken] {
      token = given.trimmingWhitespace
    } else {
      let variable = invocation[.customTokenEnv] ?? ""
      guard let value = context.environment[variable], !value.trimmingWhitespace.isEmpty else {
        throw AuthError(.usage, message: "Environment variable \(variable) is not set (--custom-token-env).")
      }
      token = value.trimmingWhitespace
    }
    guard !token.isEmpty else { throw AuthError(.usage, message: "--custom-token is empty.") }
    context.redactor.register(token)
    let (provider, target) = try makeProvider(invocation, context)
    let sessions = context.sessions(for: target)
    if !invocation[.noSave] { try sessions.checkAvailable() }
    let session = try await provider.signInWithCustomToken(token)
    let who = session.user.email.isEmpty ? session.user.id : session.user.email
    var result = try keepSignedIn(session, email: who, invocation, context, target: target)
    result.notes.insert("Signed in with a custom token as \(who).", at: 0)
    return result
  }
}
