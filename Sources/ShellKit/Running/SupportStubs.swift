import AuthCore

// TEMPORARY stand-ins until the coordinator's SupportGuard / AuditLog land (removed on pull).
public protocol AuditLog: Sendable {
  func append(_ entry: AuditEntry)
  func entries() throws -> [AuditEntry]
}

public protocol LinePrompter: Sendable {
  func readLine(prompt: String) -> String?
}

enum SupportGuard {
  static func refuseIfReadonly(_ invocation: Invocation, target: Target) throws {
    guard invocation.spec.mutating, target.readonly else { return }
    throw AuthError(.configError, message: "Profile \(target.profile) is readonly: '\(invocation.spec.name)' was not sent.")
  }

  static func confirm(_ invocation: Invocation, user: AdminUser, context: ShellContext) throws {
    if invocation.has("--yes") { return }
    guard let prompter = context.linePrompter else {
      throw AuthError(.usage, message: "'\(invocation.spec.name)' needs --yes when there is no terminal to ask on.")
    }
    guard let answer = prompter.readLine(prompt: "Type the e-mail address to confirm: "), answer.trimmingWhitespace == user.email else {
      throw AuthError(.cancelled, message: "Not confirmed; nothing was changed.")
    }
  }
}

extension Diagnosis {
  static func evaluate(email: String, user: AdminUser?, provider: ProviderKind, settings: ProjectSettings?, now: Int) -> Diagnosis {
    Diagnosis(email: email, findings: user == nil ? [.init(code: "no_account", message: "There is no account for \(email).")] : [], canSignIn: user != nil)
  }
}

/// Stops the spinner while a line is asked for, so the prompt is not drawn over.
public struct SpinnerPausingLinePrompter: LinePrompter {
  let base: any LinePrompter
  let spinner: any Spinner
  let text: String

  public init(base: any LinePrompter, spinner: any Spinner, text: String) {
    self.base = base
    self.spinner = spinner
    self.text = text
  }

  public func readLine(prompt: String) -> String? {
    spinner.stop()
    let line = base.readLine(prompt: prompt)
    if line != nil, !Task.isCancelled { spinner.start(text) }
    return line
  }
}
