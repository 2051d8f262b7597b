import AuthCore
import JSONKit

struct SecretSetCommand: Command {
  func standardInput(_ invocation: Invocation) -> StandardInputUse? { .text }

  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
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
}

extension SecretSetCommand {
  /// Largest value stored (a service-account JSON is about 2.3 kB).
  static let maximumSecretSize = 64 * 1024
}
