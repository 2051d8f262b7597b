import AuthCore
import Foundation

/// Runs one command of the table and returns its result. Shared by one-shot commands, the shell
/// and scripts; never throws (failures are in `result.error`), never prints.
public struct CommandRunner: Sendable {
  public init() {}

  public func run(_ invocation: Invocation, in context: ShellContext) async -> CommandResult {
    let started = DispatchTime.now().uptimeNanoseconds
    var result: CommandResult
    do {
      result = try await execute(invocation, in: context)
    } catch let error as AuthError {
      result = .failure(invocation.spec.name, error)
    } catch is CancellationError {
      result = .failure(invocation.spec.name, AuthError(.cancelled))
    } catch {
      // Not one of authsh's own errors: a sentence for the user, the raw text under --verbose.
      result = .failure(
        invocation.spec.name,
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

  private func execute(_ invocation: Invocation, in context: ShellContext) async throws -> CommandResult {
    switch invocation.spec.name {
    case "signup": return try await signUp(invocation, context)
    case "login": return try await logIn(invocation, context)
    case "reset": return try await reset(invocation, context)
    case "reset confirm": return try await confirmReset(invocation, context)
    case "whoami": return try await whoami(invocation, context)
    case "logout": return try await logOut(invocation, context)
    case "refresh": return try await refresh(invocation, context)
    case "status": return try status(invocation, context)
    case "inbox": return try await inbox(invocation, context)
    case "use": return try use(invocation, context)
    case "provider": return try provider(invocation, context)
    case "help": return help(invocation)
    case "version":
      var result = CommandResult(command: "version")
      result.output = "authsh \(AuthshVersion.current)"
      return result
    case "echo": return echo(invocation)
    case "sleep": return try await sleep(invocation)
    case let name where invocation.spec.group == .support:
      _ = name
      return try await support(invocation, context)
    default:
      throw AuthError(.usage, message: "'\(invocation.spec.name)' is not a command this surface runs here")
    }
  }

  /// The target with per-invocation overrides (`--timeout`).
  func target(_ invocation: Invocation, _ context: ShellContext) throws -> Target {
    var target = try context.target()
    if let text = invocation.value("--timeout") {
      guard let seconds = Durations.seconds(text), seconds > 0 else {
        throw AuthError(.usage, message: "--timeout takes a duration up to 24h such as 30s or 2m, not '\(text)'")
      }
      target.timeout = seconds
    }
    if context.verbose || invocation.has("--verbose"), let sink = context.traceSink {
      for note in target.environmentNotes { sink(context.redactor.redact("* " + note)) }
    }
    return target
  }

  func makeProvider(_ invocation: Invocation, _ context: ShellContext) throws -> (any AuthProvider, Target) {
    let target = try target(invocation, context)
    context.redactor.register(target.key)
    return (context.makeProvider(target, trace(invocation, context)), target)
  }

  /// Where `--verbose` request traces go: redacted and escaped; nil without `--verbose`.
  func trace(_ invocation: Invocation, _ context: ShellContext) -> (@Sendable (String) -> Void)? {
    guard context.verbose || invocation.has("--verbose"), let sink = context.traceSink else { return nil }
    let redactor = context.redactor
    return { @Sendable line in sink(TerminalText.escapeKeepingLines(redactor.redact(line))) }
  }
}
