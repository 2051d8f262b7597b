import AuthCore

struct ProviderCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    guard let kind = invocation[.providerKind] else {
      throw AuthError(.usage, message: "provider takes supabase or firebase")
    }
    context.redactor.register(invocation[.providerKey])
    var connection = context.connection
    connection.provider = kind
    connection.url = invocation[.providerURL]
    connection.key = invocation[.providerKey]
    try switchTo(connection, context)
    return try await StatusCommand().run(invocation, context, io)
  }
}
