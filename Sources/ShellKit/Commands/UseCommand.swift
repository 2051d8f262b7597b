import AuthCore

struct UseCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let name = invocation[.profileName] ?? ""
    // A profile added to config.toml while the shell runs is there to switch to.
    context.rereadConfig()
    // A broken config.toml is reported as itself, not as "profile not defined".
    let known = try context.resolver.document()?.profileNames ?? []
    guard known.contains(name) else {
      throw AuthError(
        .configError, message: "Profile '\(name)' is not defined in \(context.resolver.paths.configFile).",
        hint: known.isEmpty
          ? "Add a [profiles.\(name)] table to it." : "Defined profiles: \(known.joined(separator: ", ")).")
    }
    var connection = ConnectionFlags()
    connection.profile = name
    connection.allowInsecureHTTP = context.connection.allowInsecureHTTP
    // `--credential-store` given when the shell started still holds after `use`.
    connection.credentialStore = context.connection.credentialStore
    try switchTo(connection, context)
    return try await StatusCommand().run(invocation, context, io)
  }
}
