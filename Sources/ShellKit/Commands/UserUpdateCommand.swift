import AuthCore
import JSONKit

/// `user update EMAIL --name/--meta/--app-meta/--claims/--phone` (or `--from FILE`).
struct UserUpdateCommand: AccountChangeCommand {
  func action(_ invocation: Invocation) throws -> BulkAction {
    let changes = try Self.accountUpdate(invocation)
    // Metadata of the person's own (Supabase's user_metadata) is what one backend has not.
    return BulkAction(
      verb: "update", done: "Updated", requires: changes.metadata.isEmpty ? nil : .userMetadata,
      already: { changes.isApplied(to: $0) ? "Already as asked; nothing changed." : nil },
      apply: { provider, user, _ in try await provider.update(user, with: changes) })
  }

  func sentences(_ step: ChangeStep, changed: AdminUser, _ invocation: Invocation) -> [String] {
    // Checked by `action` before anything was sent.
    guard let changes = try? Self.accountUpdate(invocation) else { return [] }
    var what: [String] = []
    if changes.name != nil { what.append("the name") }
    if !changes.metadata.isEmpty { what.append("metadata " + changes.metadata.keys.joined(separator: ", ")) }
    if !changes.appMetadata.isEmpty { what.append("app metadata " + changes.appMetadata.keys.joined(separator: ", ")) }
    if !changes.claims.isEmpty { what.append("claims " + changes.claims.keys.joined(separator: ", ")) }
    if changes.phone != nil { what.append("the phone number") }
    var sentences = ["Updated \(what.joined(separator: "; ")) of \(step.who)."]
    if !changes.claims.isEmpty || !changes.appMetadata.isEmpty {
      sentences.append("Tokens issued before keep the old claims until they are refreshed (up to 1 h).")
    }
    return sentences
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
