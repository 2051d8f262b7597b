import AuthCore

/// One of the shell's own commands (`history`, `retry`, `source`, `clear`, `quit`/`exit`): what
/// it does to the shell. The table lists them for help and completion; `Repl.builtins` pairs
/// each with its type, as `CommandTable.handlers` does for the commands the runner runs.
protocol ShellBuiltin: Sendable {
  /// Runs in `repl` (the line is already in the history); false when the shell should end.
  func run(_ invocation: Invocation, in repl: Repl) async -> Bool
}

extension Repl {
  /// The shell's own commands by id (a test checks that every row the table places in the shell
  /// has one).
  static let builtins: [CommandID: any ShellBuiltin] = [
    .quit: EndBuiltin(), .exit: EndBuiltin(), .history: HistoryBuiltin(), .clear: ClearBuiltin(),
    .retry: RetryBuiltin(), .source: SourceBuiltin(),
  ]
}

/// `quit`, `exit`.
struct EndBuiltin: ShellBuiltin {
  func run(_ invocation: Invocation, in repl: Repl) async -> Bool { false }
}

/// `history`: this session's lines, secrets masked.
struct HistoryBuiltin: ShellBuiltin {
  func run(_ invocation: Invocation, in repl: Repl) async -> Bool {
    repl.sink.out(ReplRendering.history(repl.sessionLines))
    return true
  }
}

/// `clear`: cursor home, erase the screen and its scroll-back (what clear(1) sends on xterm).
struct ClearBuiltin: ShellBuiltin {
  func run(_ invocation: Invocation, in repl: Repl) async -> Bool {
    if repl.options.interactive { repl.sink.out("\u{1B}[H\u{1B}[2J\u{1B}[3J") }
    return true
  }
}

/// `retry`: the last failed command again.
struct RetryBuiltin: ShellBuiltin {
  func run(_ invocation: Invocation, in repl: Repl) async -> Bool {
    let style = repl.options.style
    guard let last = repl.context.lastFailed else {
      repl.sink.err(style.red("error:") + " nothing to retry: no command has failed yet\n")
      return true
    }
    repl.sink.err(style.dim("retrying: " + ReplRendering.line(of: last)) + "\n")
    await repl.execute(last)
    return true
  }
}

/// `source FILE.auth`: a script's lines in this shell.
struct SourceBuiltin: ShellBuiltin {
  func run(_ invocation: Invocation, in repl: Repl) async -> Bool {
    await repl.source(invocation[.sourceFile] ?? "")
    return true
  }
}
