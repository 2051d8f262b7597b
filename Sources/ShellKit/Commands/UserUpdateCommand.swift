import AuthCore
import JSONKit

struct UserUpdateCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
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
}

extension UserUpdateCommand {
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
