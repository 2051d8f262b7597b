import AuthCore
import Essentials

struct UserMfaResetCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    if try isBulk(invocation) {
      let factorId = invocation[.resetFactor].map(\.trimmingWhitespace).flatMap { $0.isEmpty ? nil : $0 }
      return try await bulkChange(
        invocation, context,
        BulkAction(
          verb: "remove the second factors of", done: "Removed the second factors of", wholeAccount: true,
          already: { user in
            user.factors.contains { factor in factorId.map { factor.matches($0) } ?? true }
              ? nil : "No such second factor; nothing changed."
          },
          apply: { provider, user, _ in
            _ = try await provider.resetFactors(
              user, factorId: try factorId.flatMap { try user.factors.factor(named: $0)?.id } ?? factorId)
          }))
    }
    return try await change(invocation, context) { step, result in
      var factorId = invocation[.resetFactor].map(\.trimmingWhitespace).flatMap { $0.isEmpty ? nil : $0 }
      // A name is resolved here: one two factors share is refused with their ids (as mfa remove).
      if let text = factorId, let factor = try step.user.factors.factor(named: text) { factorId = factor.id }
      guard !step.user.factors.isEmpty else {
        result.notes.append("\(step.who) has no second factor; nothing changed.")
        return step.user
      }
      let changed = try await step.provider.resetFactors(step.user, factorId: factorId)
      let removed = step.user.factors.filter { old in !changed.factors.contains { $0.id == old.id } }
      let names = removed.map { $0.kind.rawValue + ($0.name.map { " \"\($0)\"" } ?? "") + " (\($0.id))" }
      let left =
        changed.verifiedFactors.isEmpty
        ? "it signs in with the password alone and can enrol a new authenticator"
        : "\(changed.verifiedFactors.count) factor(s) left"
      result.notes.append(
        "Removed \(names.isEmpty ? "no factor" : names.joined(separator: ", ")) from \(step.who): \(left).")
      return changed
    }
  }
}
