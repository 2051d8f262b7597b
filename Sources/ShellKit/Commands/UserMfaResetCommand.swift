import AuthCore

/// `user mfa reset EMAIL [--factor ID-OR-NAME]` (or `--from FILE`): removes second factors.
struct UserMfaResetCommand: AccountChangeCommand {
  func action(_ invocation: Invocation) -> BulkAction {
    let factorId = invocation[.resetFactor].map(\.trimmingWhitespace).flatMap { $0.isEmpty ? nil : $0 }
    return BulkAction(
      verb: "remove the second factors of", done: "Removed the second factors of", wholeAccount: true,
      already: { user in
        user.factors.contains { factor in factorId.map { factor.matches($0) } ?? true }
          ? nil : "No such second factor; nothing changed."
      },
      apply: { provider, user, _ in
        // A name is resolved here: one two factors share is refused with their ids (as mfa remove).
        try await provider.resetFactors(
          user, factorId: try factorId.flatMap { try user.factors.factor(named: $0)?.id } ?? factorId)
      })
  }

  func unchanged(_ step: ChangeStep, _ invocation: Invocation) -> String? {
    step.user.factors.isEmpty ? "\(step.who) has no second factor; nothing changed." : nil
  }

  func sentences(_ step: ChangeStep, changed: AdminUser, _ invocation: Invocation) -> [String] {
    let removed = step.user.factors.filter { old in !changed.factors.contains { $0.id == old.id } }
    let names = removed.map { $0.kind.rawValue + ($0.name.map { " \"\($0)\"" } ?? "") + " (\($0.id))" }
    let left =
      changed.verifiedFactors.isEmpty
      ? "it signs in with the password alone and can enrol a new authenticator"
      : "\(changed.verifiedFactors.count) factor(s) left"
    return ["Removed \(names.isEmpty ? "no factor" : names.joined(separator: ", ")) from \(step.who): \(left)."]
  }
}
