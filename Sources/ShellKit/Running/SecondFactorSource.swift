import AuthCore
import Essentials
import OneTimeCode

/// Where `login`'s second-step code comes from: `--code`, `--code-env`, `--totp-secret-env`
/// (computed here, RFC 6238), else a no-echo prompt on a terminal, else `mfa_required`.
struct SecondFactorSource {
  let invocation: Invocation
  let context: ShellContext

  static let prompt = "Code from your authenticator app: "

  /// Whether a code can be had without asking (a flag gives it).
  var isExplicit: Bool { invocation.hasAny([FlagKey.mfaCode, FlagKey.mfaCodeEnv, FlagKey.totpSecretEnv]) }

  /// The code to send now, for an account `email`.
  func code(for email: String) throws -> String {
    if let code = invocation[.mfaCode] { return remember(code.trimmingWhitespace) }
    if let variable = invocation[.mfaCodeEnv] {
      guard let value = context.environment[variable] else {
        throw AuthError(.mfaRequired, message: "Environment variable \(variable) is not set (--code-env).")
      }
      return remember(value.trimmingWhitespace)
    }
    if let variable = invocation[.totpSecretEnv] {
      guard let secret = context.environment[variable], !secret.trimmingWhitespace.isEmpty else {
        throw AuthError(.mfaRequired, message: "Environment variable \(variable) is not set (--totp-secret-env).")
      }
      context.redactor.register(secret)
      guard let code = TOTP.code(secret: secret, unixTime: context.clock.unixNow) else {
        throw AuthError(
          .usage,
          message: "Environment variable \(variable) does not hold a base32 TOTP secret (letters A–Z and digits 2–7).")
      }
      return remember(code)
    }
    guard let prompter = context.passwordPrompter else {
      throw AuthError(
        .mfaRequired,
        message:
          "\(email) has a second factor: add --code CODE, --code-env VAR or --totp-secret-env VAR (there is no terminal to ask for the code)."
      )
    }
    guard let typed = prompter.readPassword(prompt: Self.prompt) else { throw AuthError(.cancelled) }
    return remember(typed.trimmingWhitespace.replacingAll(" ", with: ""))
  }

  /// The factor to answer with: `--factor`, else the only TOTP one, else asked on a terminal.
  func choose(from factors: [AuthFactor]) throws -> AuthFactor {
    let totp = factors.filter { $0.kind == .totp }
    let listed = factors.map { "\($0.label) (\($0.kind.rawValue), \($0.id))" }.joined(separator: ", ")
    if let wanted = invocation[.factor] {
      guard let factor = try factors.factor(named: wanted) else {
        throw AuthError(.usage, message: "The account has no second factor '\(wanted)'; it has: \(listed).")
      }
      guard factor.kind == .totp else { throw phoneOnly(factor) }
      return factor
    }
    if totp.count == 1, let only = totp.first { return only }
    guard let first = factors.first else {
      throw AuthError(.malformedResponse, detail: "a second step was due but the backend named no factor")
    }
    if totp.isEmpty { throw phoneOnly(first) }
    if let prompter = context.passwordPrompter, prompter.readsText {
      let names = totp.map(\.label).joined(separator: ", ")
      guard let answer = prompter.readText(prompt: "Which authenticator (\(names))? ") else {
        throw AuthError(.cancelled)
      }
      if let factor = try totp.factor(named: answer.trimmingWhitespace) { return factor }
      throw AuthError(.usage, message: "No authenticator '\(answer.trimmingWhitespace)'; the account has: \(listed).")
    }
    throw AuthError(
      .mfaRequired, message: "The account has several authenticator factors: add --factor ID|NAME (\(listed)).")
  }

  private func phoneOnly(_ factor: AuthFactor) -> AuthError {
    AuthError(
      .notSupported,
      message:
        "The second factor '\(factor.label)' is \(factor.kind.rawValue), not an authenticator app; authsh answers TOTP factors only."
    )
  }

  private func remember(_ value: String) -> String {
    context.redactor.register(value)
    return value
  }
}
