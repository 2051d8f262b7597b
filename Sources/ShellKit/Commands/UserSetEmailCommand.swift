import AuthCore
import JSONKit

struct UserSetEmailCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let newEmail = (invocation[.newEmail] ?? "").trimmingWhitespace
    guard newEmail.contains("@"), !newEmail.hasPrefix("@"), !newEmail.hasSuffix("@") else {
      throw AuthError(.usage, message: "'\(newEmail)' is not an e-mail address: `user set-email OLD NEW`.")
    }
    return try await change(invocation, context) { step, result in
      guard step.user.email.lowercased() != newEmail.lowercased() else {
        result.notes.append("\(step.who) already has that address; nothing changed.")
        return step.user
      }
      let confirmed = invocation[.newConfirmed]
      let changed = try await step.provider.setEmail(step.user, to: newEmail, confirmed: confirmed)
      context.noteEmail(changed.email)
      let state = changed.confirmed ? "confirmed" : "not confirmed yet"
      result.notes.append(
        "Changed the e-mail address of \(step.who) to \(changed.email) (\(state)); it signs in with the new address now."
      )
      return changed
    }
  }
}
