import AuthCore
import JSONKit

/// `secret set|list|delete`: admin keys in the platform keyring, for `service_key_keyring` and
/// `credentials_keyring`. A value is read with echo off on a terminal, or from standard input;
/// it is registered with the redactor at once and never put in a result.
extension CommandRunner {
  /// Largest value stored (a service-account JSON is about 2.3 kB).
  static let maximumSecretSize = 64 * 1024

  func setSecret(_ invocation: Invocation, _ context: ShellContext) throws -> CommandResult {
    let name = try secretName(invocation)
    let keyring = try reachableKeyring(context)
    let value: String
    if let prompter = context.passwordPrompter {
      guard let typed = prompter.readPassword(prompt: "Value of \(name) (not shown): ") else {
        throw AuthError(.cancelled)
      }
      value = typed
    } else if let read = context.readStdinText {
      value = try read()
    } else {
      throw AuthError(
        .usage, message: "No value for \(name): standard input is neither a terminal nor a pipe.",
        hint: "Pipe it in: authsh secret set \(name) < FILE")
    }
    context.redactor.register(value)
    let trimmed = value.trimmingWhitespace
    context.redactor.register(trimmed)
    guard !trimmed.isEmpty else {
      throw AuthError(.usage, message: "No value for \(name): it is empty.", hint: "Nothing was stored.")
    }
    guard trimmed.utf8.count <= Self.maximumSecretSize else {
      throw AuthError(
        .usage, message: "The value for \(name) is larger than 64 KiB: not an admin key.", hint: "Nothing was stored.")
    }
    try keyring.write(trimmed, to: .serviceKey(name))
    var result = CommandResult(command: invocation.spec.name)
    result.notes.append("Stored \(name) in \(keyring.name).")
    let isServiceAccount = (try? JSON.parse(trimmed))?["type"]?.string == "service_account"
    result.notes.append(
      isServiceAccount
        ? "A Firebase profile uses it with credentials_keyring = \"\(name)\"."
        : "A Supabase profile uses it with service_key_keyring = \"\(name)\".")
    return result
  }

  func listSecrets(_ invocation: Invocation, _ context: ShellContext) throws -> CommandResult {
    let keyring = try reachableKeyring(context)
    var result = CommandResult(command: invocation.spec.name)
    result.secrets = try keyring.names(of: .serviceKey)
    if result.secrets?.isEmpty == true {
      result.notes.append("No secrets in \(keyring.name) (authsh secret set NAME stores one).")
    }
    return result
  }

  func deleteSecret(_ invocation: Invocation, _ context: ShellContext) throws -> CommandResult {
    let name = try secretName(invocation)
    let keyring = try reachableKeyring(context)
    guard try keyring.delete(.serviceKey(name)) else {
      let known = (try? keyring.names(of: .serviceKey)) ?? []
      throw AuthError(
        .notFound, message: "No secret named \(name) in \(keyring.name); nothing was deleted.",
        hint: Suggest.closest(to: name, among: known).map { "Did you mean '\($0)'?" }
          ?? "authsh secret list shows the names.")
    }
    var result = CommandResult(command: invocation.spec.name)
    result.notes.append("Deleted \(name) from \(keyring.name).")
    return result
  }

  func migrateSessions(_ invocation: Invocation, _ context: ShellContext) throws -> CommandResult {
    guard let to = invocation[.migrateTo].flatMap(CredentialStoreMode.init(rawValue:)), to != .auto else {
      throw AuthError(.usage, message: "secret migrate needs --to keyring or --to file.")
    }
    guard let stores = context.sessionStores else {
      throw AuthError(.notSupported, message: "Sessions here are kept in memory: there is nothing to move.")
    }
    let moved = try stores.migrate(to: to)
    var result = CommandResult(command: invocation.spec.name)
    for move in moved {
      result.notes.append(
        to == .keyring
          ? "Moved the session of \(move.backend) into the keyring; \(move.file) keeps the rest."
          : "Moved the session of \(move.backend) out of the keyring into \(move.file) (0600); it stays there.")
    }
    if moved.isEmpty {
      result.notes.append("No saved session to move to the \(to.rawValue == "file" ? "files" : "keyring").")
    }
    return result
  }

  /// NAME: letters, digits, `.`, `_`, `-`, at most 100 characters (it goes in config.toml).
  private func secretName(_ invocation: Invocation) throws -> String {
    let name = (invocation[.secretName] ?? "").trimmingWhitespace
    let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    guard !name.isEmpty, name.count <= 100, allowed else {
      throw AuthError(
        .usage,
        message: "A secret's name is 1 to 100 letters, digits, '.', '_' or '-'\(name.isEmpty ? "" : ", not '\(name)'")."
      )
    }
    return name
  }

  private func reachableKeyring(_ context: ShellContext) throws -> any SecretStore {
    guard let keyring = context.secretStore else {
      throw AuthError(.notSupported, message: "There is no keyring here: secrets need the platform keyring.")
    }
    if let reason = keyring.unavailableReason() {
      throw AuthError(
        .configError, message: "No keyring is reachable: \(reason).", hint: SessionStores.secretsKeyringHint)
    }
    return keyring
  }
}
