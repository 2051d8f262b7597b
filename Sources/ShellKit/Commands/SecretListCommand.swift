import AuthCore
import JSONKit

struct SecretListCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let keyring = try reachableKeyring(context)
    var result = CommandResult(command: invocation.spec.name)
    let names = try keyring.names(of: .serviceKey)
    result.payload = SecretsOutput(names: names)
    if names.isEmpty {
      result.notes.append("No secrets in \(keyring.name) (authsh secret set NAME stores one).")
    }
    return result
  }
}
