import AuthCore

extension CommandRunner {
  func use(_ invocation: Invocation, _ context: ShellContext) throws -> CommandResult {
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
    return try status(invocation, context)
  }

  /// Makes `connection` the shell's when it resolves to a target; otherwise the shell keeps the
  /// one it had and the error says so.
  func switchTo(_ connection: ConnectionFlags, _ context: ShellContext) throws {
    let previous = context.connection
    context.connection = connection
    do {
      _ = try context.target()
    } catch var error as AuthError {
      context.connection = previous
      if let kept = try? context.target() {
        let note = "The shell still uses \(kept.provider.rawValue):\(kept.profile)."
        error.hint = error.hint.map { $0 + " " + note } ?? note
      }
      throw error
    }
  }

  func provider(_ invocation: Invocation, _ context: ShellContext) throws -> CommandResult {
    guard let kind = invocation[.providerKind] else {
      throw AuthError(.usage, message: "provider takes supabase or firebase")
    }
    context.redactor.register(invocation[.providerKey])
    var connection = context.connection
    connection.provider = kind
    connection.url = invocation[.providerURL]
    connection.key = invocation[.providerKey]
    try switchTo(connection, context)
    return try status(invocation, context)
  }

  func help(_ invocation: Invocation) -> CommandResult {
    var result = CommandResult(.help)
    switch HelpTopics.render(invocation.all(.helpTopic), surface: .interactive) {
    case .success(let text): result.output = text
    case .failure(let problem): result.error = AuthError(.usage, message: problem.fullMessage)
    }
    return result
  }

  func echo(_ invocation: Invocation) -> CommandResult {
    var result = CommandResult(.echo)
    result.output = invocation.all(.echoText).joined(separator: " ")
    return result
  }

  func sleep(_ invocation: Invocation) async throws -> CommandResult {
    // Checked and decoded when the line was parsed.
    guard let seconds = invocation[.sleepDuration] else {
      throw AuthError(.usage, message: "sleep takes a duration up to 24h such as 2s or 500ms")
    }
    try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    return CommandResult(.sleep)
  }
}
