import AuthCore
import Essentials

/// Runs one command of the table (its handler, `CommandTable.handlers`) and returns its result. Shared by one-shot commands, the shell
/// and scripts; never throws (failures are in `result.error`), never prints.
package struct CommandRunner: Sendable {
  package init() {}

  package func run(_ invocation: Invocation, in context: ShellContext, io: CommandIO = CommandIO()) async
    -> CommandResult
  {
    let started = DispatchTime.now().uptimeNanoseconds
    var result: CommandResult
    do {
      result = try await CommandTable.handler(invocation.id).run(invocation, context, io)
    } catch let error as AuthError {
      result = CommandTable.failure(invocation.spec, error)
    } catch is CancellationError {
      result = CommandTable.failure(invocation.spec, AuthError(.cancelled))
    } catch {
      // Not one of authsh's own errors: a sentence for the user, the raw text under --verbose.
      result = CommandTable.failure(
        invocation.spec,
        AuthError(.providerError, message: "The command failed unexpectedly.", detail: String(describing: error)))
    }
    result.elapsedMs = Int((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
    if let session = result.session {
      context.redactor.register(session.accessToken)
      context.redactor.register(session.refreshToken)
    }
    if let error = result.error, error.code == .sessionExpired, let target = try? context.target() {
      try? context.sessions(for: target).save(session: nil)
    }
    return result
  }
}
