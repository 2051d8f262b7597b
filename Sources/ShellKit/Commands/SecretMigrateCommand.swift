import AuthCore
import JSONKit

struct SecretMigrateCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
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
}
