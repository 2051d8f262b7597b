import AuthCore
import Essentials

struct UserCreateCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    try await guarded(invocation, context, creating: true) { provider, subject, _, account in
      let password = try PasswordSource(invocation: invocation, context: context).read(confirm: true)?.password
      if let password { context.redactor.register(password) }
      let user = try await provider.createUser(
        email: subject, password: password, confirmed: invocation[.confirmed], name: invocation[.accountName])
      account = user
      var result = CommandResult(command: invocation.spec.name)
      result.payload = AccountsOutput(lookups: [UserLookup(query: subject, user: user)])
      result.notes.append(Self.createdSentence(user, password: password != nil))
      context.noteEmail(user.email)
      return result
    }
  }
}

extension UserCreateCommand {
  static func createdSentence(_ user: AdminUser, password: Bool) -> String {
    let state = user.confirmed ? "confirmed" : "not confirmed yet"
    let sign = password ? "" : "; it has no password (set one with 'authsh user set-password')"
    return "Created \(user.email) (\(user.id)), e-mail \(state)\(sign)."
  }
}
