import AuthCore
import Essentials

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

  /// Every command of the table has its case here and no `default:` exists, so a new command
  /// without a handler does not compile.
  private func execute(_ invocation: Invocation, in context: ShellContext) async throws -> CommandResult {
    switch invocation.id {
    case .signup: return try await signUp(invocation, context)
    case .login: return try await logIn(invocation, context)
    case .reset: return try await reset(invocation, context)
    case .resetConfirm: return try await confirmReset(invocation, context)
    case .whoami: return try await whoami(invocation, context)
    case .logout: return try await logOut(invocation, context)
    case .refresh: return try await refresh(invocation, context)
    case .status: return try status(invocation, context)
    case .inbox: return try await inbox(invocation, context)
    case .mfaEnroll: return try await enrollFactor(invocation, context)
    case .mfaList: return try await listFactors(invocation, context)
    case .mfaRemove: return try await removeFactor(invocation, context)
    case .use: return try use(invocation, context)
    case .provider: return try provider(invocation, context)
    case .help: return help(invocation)
    case .version:
      var result = CommandResult(command: invocation.spec.name)
      result.output = "authsh \(AuthshVersion.current)"
      return result
    case .echo: return echo(invocation)
    case .sleep: return try await sleep(invocation)
    case .audit: return try readAudit(invocation, context)
    case .userShow: return try await showUsers(invocation, context)
    case .userList: return try await listUsers(invocation, context)
    case .diagnose: return try await diagnose(invocation, context)
    case .userLinkRecovery: return try await makeLink(invocation, context, kind: .recovery)
    case .userLinkConfirm: return try await makeLink(invocation, context, kind: .confirm)
    case .userLinkInvite: return try await makeLink(invocation, context, kind: .invite)
    case .userMfaReset: return try await resetFactors(invocation, context)
    case .userHistory: return try await accountHistory(invocation, context)
    case .userExport: return try await exportUsers(invocation, context)
    case .userConfirm: return try await confirmEmail(invocation, context)
    case .userResend: return try await resendConfirmation(invocation, context)
    case .userDisable: return try await disable(invocation, context)
    case .userEnable: return try await enable(invocation, context)
    case .userSetPassword: return try await setPassword(invocation, context)
    case .userSetEmail: return try await setEmail(invocation, context)
    case .userUpdate: return try await updateAccount(invocation, context)
    case .userCreate: return try await createUser(invocation, context)
    case .userImport: return try await importUsers(invocation, context)
    case .userDelete: return try await delete(invocation, context)
    case .userSignout: return try await signOutUser(invocation, context)
    case .secretSet: return try setSecret(invocation, context)
    case .secretList: return try listSecrets(invocation, context)
    case .secretDelete: return try deleteSecret(invocation, context)
    case .secretMigrate: return try migrateSessions(invocation, context)
    case .retry, .history, .source, .clear, .quit, .exit:
      // The shell runs these itself: they act on the shell, not on a backend.
      throw AuthError(.usage, message: "'\(invocation.spec.name)' works only in the interactive shell")
    case .run, .emulator, .emulatorFaultsClear, .completion:
      // The executable runs these itself (`authsh run …`).
      throw AuthError(
        .usage, message: "'\(invocation.spec.name)' works only as `authsh \(invocation.spec.name) …` from a shell")
    }
  }

  /// The target with per-invocation overrides (`--timeout`).
  func target(_ invocation: Invocation, _ context: ShellContext) throws -> Target {
    var target = try context.target()
    if let seconds = invocation.output(.timeout) { target.timeout = seconds }
    if context.verbose || invocation.output(.verbose), let sink = context.traceSink {
      for note in target.environmentNotes { sink(context.redactor.redact("* " + note)) }
      if [.account, .session].contains(invocation.spec.group), invocation.id != .inbox {
        sink(
          TerminalText.escape(
            context.redactor.redact("* session kept in " + context.sessions(for: target).location.place)))
      }
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
    guard context.verbose || invocation.output(.verbose), let sink = context.traceSink else { return nil }
    let redactor = context.redactor
    return { @Sendable line in sink(TerminalText.escapeKeepingLines(redactor.redact(line))) }
  }
}
