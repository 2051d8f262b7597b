import AuthCore
import Essentials

/// What every command that reaches a backend starts from: the target with this line's
/// overrides, the provider for it, and where `--verbose` traces go.
extension Command {
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
