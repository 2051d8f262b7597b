import AuthCore
import JSONKit

/// `secret set|list|delete`: admin keys in the platform keyring, for `service_key_keyring` and
/// `credentials_keyring`. A value is read with echo off on a terminal, or from standard input;
/// it is registered with the redactor at once and never put in a result.
extension Command {
  /// NAME: letters, digits, `.`, `_`, `-`, at most 100 characters (it goes in config.toml).
  func secretName(_ invocation: Invocation) throws -> String {
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

  func reachableKeyring(_ context: ShellContext) throws -> any SecretStore {
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
