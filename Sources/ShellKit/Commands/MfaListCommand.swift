import AuthCore
import Essentials

struct MfaListCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let (provider, target) = try makeProvider(invocation, context)
    let (user, session) = try await context.sessions(for: target).authorized(provider: provider) {
      try await provider.user(of: $0)
    }
    var result = CommandResult(command: invocation.spec.name)
    result.payload = FactorsOutput(user: user, session: session, factors: user.factors)
    if user.factors.isEmpty {
      result.notes.append("No second factors. Add an authenticator app with `authsh mfa enroll`.")
    }
    return result
  }
}
