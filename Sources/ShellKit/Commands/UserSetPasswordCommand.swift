import AuthCore
import Essentials

struct UserSetPasswordCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    try await change(invocation, context) { step, result in
      guard let (password, _) = try PasswordSource(invocation: invocation, context: context).read(confirm: true) else {
        throw AuthError(
          .passwordRequired, message: "Give the new password with --password-env, --password-stdin or at the prompt.")
      }
      context.redactor.register(password)
      let changed = try await step.provider.setPassword(step.user, to: password)
      let sign = step.user.hasPassword ? "" : "; it can now sign in with a password"
      result.notes.append("Set a new password for \(step.who)\(sign).")
      return changed
    }
  }
}
