import AuthCore
import JSONKit

struct SecretListCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let keyring = try reachableKeyring(context)
    var result = CommandResult(command: invocation.spec.name)
    result.secrets = try keyring.names(of: .serviceKey)
    if result.secrets?.isEmpty == true {
      result.notes.append("No secrets in \(keyring.name) (authsh secret set NAME stores one).")
    }
    return result
  }
}
