import AuthCore

struct InboxCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    var email = (invocation[.inboxAddress] ?? "").trimmingWhitespace
    if email.hasPrefix("+") {
      email = try Self.phoneNumber(email, flag: "inbox")
    } else if let problem = Validator.validate(.init(email: email, requirePassword: false)) {
      throw problem
    }
    let (provider, _) = try makeProvider(invocation, context)
    guard let message = try await provider.latestMail(to: email) else {
      throw AuthError(
        .noMail, message: email.hasPrefix("+") ? "No code texted to \(email) yet." : "No mail to \(email) yet.")
    }
    var result = CommandResult(.inbox)
    result.payload = InboxOutput(message: message)
    return result
  }
}
