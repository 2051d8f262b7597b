import AuthCore

/// How the interactive shell behaves; everything with an outside effect is injected.
package struct ReplOptions: Sendable {
  /// Skip the startup file (`--no-rc`).
  package var noRC: Bool
  /// Prompts, warnings about the terminal and the spinner. False for piped input: no prompt is
  /// printed and the exit status says whether any command failed.
  package var interactive: Bool
  package var style: Style
  /// Where typed lines are kept (nil: history disabled).
  package var history: HistoryFile?
  /// The startup file run before the first prompt (nil: none).
  package var rcFile: String?
  /// Shows loading words while a request runs (nil: none; tests, pipes).
  package var spinner: (any Spinner)?
  /// Ctrl-C routing (nil: Ctrl-C is not handled by the shell).
  package var interrupts: Interrupts?
  /// Runs a `.auth` file in this shell (`source FILE`); the exit status of the script.
  package var sourceFile: (@Sendable (String) async -> Int32)?
  /// Fills `{{…}}` holes in typed lines (nil: lines run as typed).
  package var interpolate: LineInterpolator?
  /// Runs one table command (the lead's `CommandRunner` by default; a seam for tests).
  package var execute: @Sendable (Invocation, ShellContext, CommandIO) async -> CommandResult

  package init(
    noRC: Bool = false, interactive: Bool = true, style: Style = .plain, history: HistoryFile? = nil,
    rcFile: String? = nil, spinner: (any Spinner)? = nil, interrupts: Interrupts? = nil,
    sourceFile: (@Sendable (String) async -> Int32)? = nil,
    execute: @escaping @Sendable (Invocation, ShellContext, CommandIO) async -> CommandResult = {
      invocation, context, io in await CommandRunner().run(invocation, in: context, io: io)
    }
  ) {
    self.noRC = noRC
    self.interactive = interactive
    self.style = style
    self.history = history
    self.rcFile = rcFile
    self.spinner = spinner
    self.interrupts = interrupts
    self.sourceFile = sourceFile
    self.execute = execute
  }

  /// The standard files for an environment: history at `AUTHSH_HISTFILE` or
  /// `$XDG_STATE_HOME/authsh/history`, startup file at `AUTHSH_RCFILE` or
  /// `$XDG_CONFIG_HOME/authsh/rc`.
  package static func standard(
    environment: [String: String], noRC: Bool = false, interactive: Bool = true, style: Style = .plain
  ) -> ReplOptions {
    let paths = Paths(environment: environment)
    let rc = environment["AUTHSH_RCFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? paths.rcFile
    return ReplOptions(
      noRC: noRC, interactive: interactive, style: style,
      history: interactive ? HistoryFile.resolve(environment: environment, paths: paths) : nil,
      rcFile: interactive ? rc : nil)
  }
}
