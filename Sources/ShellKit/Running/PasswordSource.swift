import AuthCore

/// Where a command's password comes from: `--password`, `--password-env`,
/// `--password-stdin`, else a no-echo prompt on a terminal, else `password_required` (never a hang).
struct PasswordSource {
  let invocation: Invocation
  let context: ShellContext

  /// Whether the user gave a source on the command line.
  var isExplicit: Bool {
    invocation.hasAny(passwordFlags)
  }

  /// Whether a prompt can ask for it.
  var canPrompt: Bool { context.passwordPrompter != nil }

  /// The password, and the confirmation when `confirm` (prompts ask twice; other sources are their own confirmation).
  func read(confirm: Bool) throws -> (password: String, confirm: String?)? {
    if let value = invocation[.password] { return remember(value, nil) }
    if let variable = invocation[.passwordEnv] {
      guard let value = context.environment[variable] else { throw Self.unset(variable) }
      return remember(value, nil)
    }
    if invocation[.passwordStdin] {
      guard let reader = context.readStdinLine, let line = reader() else {
        throw AuthError(.passwordRequired, message: "No password on standard input.")
      }
      return remember(line, nil)
    }
    guard let prompter = context.passwordPrompter else { return nil }
    var prompt = confirm ? "New password: " : "Password: "
    // A mistyped confirmation asks again (three tries), rather than losing the command.
    for attempt in 1...Self.confirmationTries {
      guard let first = prompter.readPassword(prompt: prompt) else { throw Self.cancelled }
      context.redactor.register(first)
      guard confirm else { return (first, nil) }
      guard let second = prompter.readPassword(prompt: "Confirm password: ") else { throw Self.cancelled }
      context.redactor.register(second)
      if first == second || attempt == Self.confirmationTries { return (first, second) }
      prompt = "Passwords do not match. Try again.\nNew password: "
    }
    return nil
  }

  static let confirmationTries = 3

  /// Ctrl-C or Ctrl-D at the prompt: asked before the request, so nothing was sent (the shell
  /// says so instead of "may already have reached the server").
  static var cancelled: AuthError { .cancelledBeforeSending("Cancelled at the password prompt: nothing was sent.") }

  /// A value the line left out (`login` with no EMAIL), asked for with echo on a terminal; nil
  /// without one (scripts and pipes keep their "Email is required").
  /// A `--password-env` naming an unset variable is said before anything is asked: nobody types a
  /// name for a command that cannot run.
  func ask(_ prompt: String) throws -> String? {
    if invocation.given(.passwordEnv), let variable = invocation[.passwordEnv], context.environment[variable] == nil {
      throw Self.unset(variable)
    }
    guard let prompter = context.passwordPrompter, prompter.readsText else { return nil }
    guard let text = prompter.readText(prompt: prompt) else { throw Self.cancelled }
    return text
  }

  private static func unset(_ variable: String) -> AuthError {
    AuthError(.passwordRequired, message: "Environment variable \(variable) is not set.")
  }

  private func remember(_ value: String, _ confirm: String?) -> (String, String?) {
    context.redactor.register(value)
    return (value, confirm)
  }
}
