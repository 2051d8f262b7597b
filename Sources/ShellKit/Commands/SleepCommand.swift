import AuthCore

struct SleepCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    // Checked and decoded when the line was parsed.
    guard let seconds = invocation[.sleepDuration] else {
      throw AuthError(.usage, message: "sleep takes a duration up to 24h such as 2s or 500ms")
    }
    try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    return CommandResult(.sleep)
  }
}
