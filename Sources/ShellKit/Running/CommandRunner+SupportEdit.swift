import AuthCore
import JSONKit

/// `user set-email` and `user update`: the changes support makes to what an account says about
/// the person (inside the same rails as every change: `change(_:_:_:)`).
extension CommandRunner {
  func setEmail(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
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

  func updateAccount(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    let changes = try Self.accountUpdate(invocation)
    // Metadata of the person's own (Supabase's user_metadata) is what one backend has not.
    let requires: AdminChange? = changes.metadata.isEmpty ? nil : .userMetadata
    if try isBulk(invocation) {
      return try await bulkChange(
        invocation, context,
        BulkAction(
          verb: "update", done: "Updated", requires: requires,
          already: { changes.isApplied(to: $0) ? "Already as asked; nothing changed." : nil },
          apply: { provider, user, _ in _ = try await provider.update(user, with: changes) }))
    }
    return try await change(invocation, context, requires: requires) { step, result in
      let changed = try await step.provider.update(step.user, with: changes)
      var what: [String] = []
      if changes.name != nil { what.append("the name") }
      if !changes.metadata.isEmpty { what.append("metadata " + changes.metadata.keys.joined(separator: ", ")) }
      if !changes.appMetadata.isEmpty {
        what.append("app metadata " + changes.appMetadata.keys.joined(separator: ", "))
      }
      if !changes.claims.isEmpty { what.append("claims " + changes.claims.keys.joined(separator: ", ")) }
      if changes.phone != nil { what.append("the phone number") }
      result.notes.append("Updated \(what.joined(separator: "; ")) of \(step.who).")
      if !changes.claims.isEmpty || !changes.appMetadata.isEmpty {
        result.notes.append("Tokens issued before keep the old claims until they are refreshed (up to 1 h).")
      }
      return changed
    }
  }

  /// The flags of `user update`, checked before anything is sent.
  static func accountUpdate(_ invocation: Invocation) throws -> AccountUpdate {
    var update = AccountUpdate(name: invocation[.updateName])
    for (flag, key) in [("--meta", FlagKey.meta), ("--app-meta", FlagKey.appMeta)] {
      for text in invocation.all(key) {
        guard let (name, value) = AccountUpdate.pair(text) else {
          throw AuthError(.usage, message: "\(flag) takes KEY=VALUE, not '\(text)'.")
        }
        if flag == "--meta" { update.metadata[name] = value } else { update.appMetadata[name] = value }
      }
    }
    if let text = invocation[.customClaims] {
      guard let json = try? JSON.parse(text), let object = json.object else {
        throw AuthError(.usage, message: "--claims takes a JSON object, such as '{\"role\":\"admin\"}'.")
      }
      update.claims = object
    }
    if let phone = invocation[.phone] {
      update.phone = try Self.phoneNumber(phone, flag: "--phone")
    }
    guard !update.isEmpty else {
      throw AuthError(
        .usage,
        message:
          "Nothing to change: give --name, --meta KEY=VALUE, --app-meta KEY=VALUE, --claims JSON or --phone NUMBER.")
    }
    return update
  }
}
