import AuthCore
import Essentials

struct MfaRemoveCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let wanted = (invocation[.mfaFactor] ?? "").trimmingWhitespace
    let (provider, target) = try makeProvider(invocation, context)
    let sessions = context.sessions(for: target)
    let (user, _) = try await sessions.authorized(provider: provider) { try await provider.user(of: $0) }
    guard let factor = try user.factors.factor(named: wanted) else {
      let listed = user.factors.map { "\($0.label) (\($0.id))" }.joined(separator: ", ")
      throw AuthError(
        .usage,
        message: "No second factor '\(wanted)'"
          + (listed.isEmpty ? "; the account has none." : "; the account has: \(listed)."))
    }
    if !invocation[.yes] {
      guard let prompter = context.linePrompter else {
        throw AuthError(
          .usage,
          message:
            "'mfa remove' removes the factor '\(factor.label)' and needs confirmation: add --yes (there is no terminal to ask)."
        )
      }
      let question =
        "Remove the second factor '\(TerminalText.escape(factor.label))' (\(factor.kind.rawValue), \(factor.id)) of \(TerminalText.escape(user.email))? [y/N] "
      guard let answer = prompter.readLine(prompt: question) else { throw AuthError(.cancelled) }
      guard ["y", "yes"].contains(answer.trimmingWhitespace.lowercased()) else {
        throw AuthError(.cancelled, message: "Not removed.")
      }
    }
    let (renewed, used) = try await sessions.authorized(provider: provider) {
      try await provider.removeFactor($0, id: factor.id)
    }
    var session = renewed ?? used
    if let renewed { try sessions.save(session: renewed) }
    session.user.factors = user.factors.filter { $0.id != factor.id }
    var result = CommandResult(command: invocation.spec.name)
    result.payload = FactorsOutput(factors: session.user.factors)
    result.notes.append("Removed the second factor '\(factor.label)'.")
    return result
  }
}
