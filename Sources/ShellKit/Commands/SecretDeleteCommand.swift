import AuthCore
import JSONKit

struct SecretDeleteCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
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
}
