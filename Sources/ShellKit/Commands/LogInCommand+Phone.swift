import AuthCore
import Essentials

/// `login --phone NUMBER`: passwordless sign-in with a 6-digit code texted to the number.
extension LogInCommand {
  func logInWithPhone(_ invocation: Invocation, _ context: ShellContext, number: String) async throws -> CommandResult {
    let phone = try Self.phoneNumber(number, flag: "--phone")
    if invocation[.accountEmail] != nil || PasswordSource(invocation: invocation, context: context).isExplicit
      || invocation[.link] || invocation[.remember] || invocation.hasAny([FlagKey.totpSecretEnv, FlagKey.factor])
    {
      throw AuthError(
        .usage,
        message:
          "login --phone signs in with the texted code alone: leave out EMAIL, the password, --link, --remember, --totp-secret-env and --factor."
      )
    }
    let sendOnly = invocation[.sendOnly]
    let code = try Self.givenCode(invocation, context)
    if sendOnly, code != nil {
      throw AuthError(
        .usage, message: "--send-only texts a new code; --code finishes with one already texted: use one.")
    }
    let (provider, target) = try makeProvider(invocation, context)
    let sessions = context.sessions(for: target)
    let session: AuthSession
    if let code {
      // The code of an earlier `--send-only`: nothing new is texted (a new code would replace it).
      if !invocation[.noSave] { try sessions.checkAvailable() }
      let sessionInfo = try sessions.state().phoneVerifications[phone].flatMap { $0.isEmpty ? nil : $0 }
      session = try await provider.signInWithPhone(
        PhoneVerification(phone: phone, sessionInfo: sessionInfo), code: code)
    } else {
      guard sendOnly || context.passwordPrompter != nil else {
        throw AuthError(
          .usage,
          message:
            "login --phone needs the code texted to \(phone) and there is no terminal to ask for it: text it with `login --phone \(phone) --send-only`, then finish with --code CODE or --code-env VAR."
        )
      }
      if !invocation[.noSave] { try sessions.checkAvailable() }
      let verification = try await provider.sendPhoneCode(phone: phone)
      if let sessionInfo = verification.sessionInfo { context.redactor.register(sessionInfo) }
      guard !sendOnly, let prompter = context.passwordPrompter else {
        try sessions.update { $0.phoneVerifications[phone] = verification.sessionInfo ?? "" }
        var result = CommandResult(.login)
        result.notes.append("Texted a code to \(phone); finish with: authsh login --phone \(phone) --code CODE")
        return result
      }
      guard let typed = prompter.readPassword(prompt: "Code texted to \(phone): ") else { throw AuthError(.cancelled) }
      let entered = typed.trimmingWhitespace.replacingAll(" ", with: "")
      context.redactor.register(entered)
      session = try await provider.signInWithPhone(verification, code: entered)
    }
    try? sessions.update { $0.phoneVerifications[phone] = nil }
    var result = try keepSignedIn(session, email: phone, invocation, context, target: target)
    result.notes.insert("Signed in with the code texted to \(phone).", at: 0)
    return result
  }

  /// `--code` or `--code-env`; nil when neither is given.
  private static func givenCode(_ invocation: Invocation, _ context: ShellContext) throws -> String? {
    if let code = invocation[.mfaCode] {
      context.redactor.register(code.trimmingWhitespace)
      return code.trimmingWhitespace
    }
    guard let variable = invocation[.mfaCodeEnv] else { return nil }
    guard let value = context.environment[variable], !value.trimmingWhitespace.isEmpty else {
      throw AuthError(.usage, message: "Environment variable \(variable) is not set (--code-env).")
    }
    context.redactor.register(value.trimmingWhitespace)
    return value.trimmingWhitespace
  }
}
