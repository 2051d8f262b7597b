import ShellKit

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The shell wired for a real terminal: libedit reader with Tab completion, no-echo password
/// prompt, Ctrl-C routing, spinner, history and startup files. The executable calls `run`.
package enum InteractiveShell {
  /// Whether line editing applies: standard input and output are terminals (psql's rule).
  package static var standardStreamsAreTerminals: Bool { isatty(0) != 0 && isatty(1) != 0 }

  /// Colour and marks for the shell: colour on a terminal unless `NO_COLOR` or `TERM=dumb`;
  /// ASCII marks when the locale is not UTF-8.
  package static func style(environment: [String: String], colorFlag: String? = nil) -> Style {
    let unicode = TerminalLayout.unicodeLocale(environment)
    let width = standardStreamsAreTerminals ? EditorState.terminalWidth() : nil
    switch colorFlag {
    case "always": return Style(color: true, unicode: unicode, width: width)
    case "never": return Style(color: false, unicode: unicode, width: width)
    default:
      let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
      return Style(color: standardStreamsAreTerminals && !noColor, unicode: unicode, width: width)
    }
  }

  /// The shell's Ctrl-C and its prompters on a terminal: the no-echo prompt, and confirmations
  /// asked through it with echo. Handed to the context's services when it is made.
  package struct TerminalPrompting: Sendable {
    package let interrupts = Interrupts()
    package let passwordPrompter: any PasswordPrompter
    package let linePrompter: any LinePrompter

    package init() {
      let prompter = TerminalPasswordPrompter(interrupts: interrupts)
      passwordPrompter = prompter
      linePrompter = EchoedLinePrompter(SpinnerPausingPrompter(base: prompter))
    }
  }

  /// Builds the shell for the current standard streams. On a terminal (`prompting`): libedit,
  /// prompts, spinner and Ctrl-C handling. Otherwise: plain lines, no prompt, no history, no
  /// startup file (`echo whoami | authsh`).
  package static func makeRepl(
    context: ShellContext, prompting: TerminalPrompting?, output: any OutputSink, noRC: Bool = false,
    style: Style? = nil, sourceFile: (@Sendable (String) async -> Int32)? = nil, interpolate: LineInterpolator? = nil
  ) -> (repl: Repl, interrupts: Interrupts?) {
    let environment = context.environment
    let interactive = standardStreamsAreTerminals
    let dumb = environment["TERM"] == "dumb"
    let unicode = TerminalLayout.unicodeLocale(environment)
    var options = ReplOptions.standard(
      environment: environment, noRC: noRC, interactive: interactive,
      style: style ?? self.style(environment: environment))
    // Grey argument hints after a space (redis-cli); AUTHSH_NO_HINTS=1 turns them off, and so
    // does no colour (NO_COLOR, --color never, TERM=dumb): uncoloured they would read as typed text.
    let hints = (environment["AUTHSH_NO_HINTS"] ?? "").isEmpty && options.style.color
    options.sourceFile = sourceFile
    options.interpolate = interpolate
    guard interactive, let interrupts = prompting?.interrupts else {
      return (Repl(context: context, reader: PlainLineReader(showPrompt: false), output: output, options: options), nil)
    }
    options.interrupts = interrupts
    options.spinner = TerminalSpinner(output: output, unicode: options.style.unicode)
    context.outputToPerson = true
    let reader: any LineReader =
      dumb
      ? PlainLineReader(showPrompt: true)
      : EditLineReader(
        interrupts: interrupts,
        hint: hints ? { Hinter.hint(linePrefix: $0).map { unicode ? $0 : TerminalLayout.ascii($0) } } : nil
      ) { prefix in
        Completer.complete(linePrefix: prefix, surface: .repl, source: CompletionSource(context: context)).candidates
      }
    return (Repl(context: context, reader: reader, output: output, options: options), interrupts)
  }

  /// Runs the shell until `quit`, `exit` or Ctrl-D; SIGINT is the shell's while it runs.
  package static func run(
    context: ShellContext, prompting: TerminalPrompting?, output: any OutputSink, noRC: Bool = false,
    style: Style? = nil, sourceFile: (@Sendable (String) async -> Int32)? = nil, interpolate: LineInterpolator? = nil
  ) async -> Int32 {
    let (repl, interrupts) = makeRepl(
      context: context, prompting: prompting, output: output, noRC: noRC, style: style, sourceFile: sourceFile,
      interpolate: interpolate)
    interrupts?.installSignalHandler()
    defer { interrupts?.uninstallSignalHandler() }
    return await repl.run()
  }
}
