import AuthCore
import Essentials
import JSONKit
import PostgresExport
import ShellKit

/// The `CommandIO` of one one-shot command on the process's standard streams: what the command
/// type says the line prints as it goes (`CommandTable.live`) becomes a progress line on a terminal
/// (never in CI), `user show --jsonl`'s lines as each lookup completes, a batch's stop, or
/// `user export`'s records. Nothing is set on the shared context.
enum StandardIO {
  /// The IO value, and the progress line drawn on standard error (cleared before the result).
  static func make(
    _ invocation: Invocation, _ context: ShellContext, environment: [String: String], sink: StandardSink
  ) -> (io: CommandIO, display: (any ProgressDisplay)?) {
    let terminal = Terminal.stderrIsTTY && (environment["CI"] ?? "").isEmpty
    switch CommandTable.live(invocation) {
    case nil: return (CommandIO(), nil)
    case .batch?:
      // Each account on its own line in a log; the line with rate and ETA on a terminal, only
      // for a bulk change: an import's report has a line for every account, and a line each on
      // standard error would be a million lines in a CI log.
      let bulk = invocation.spec.takesBulkFrom
      guard bulk || terminal else { return (CommandIO(batchStop: BatchStop()), nil) }
      let display = BatchProgressLine(
        sink: RedactingSink(sink, redactor: context.redactor), terminal: terminal, command: invocation.spec.name)
      return (CommandIO(batchProgress: { display.update($0) }, batchStop: BatchStop()), display)
    case .scan?:
      guard terminal else { return (CommandIO(), nil) }
      let line = ScanProgressLine(sink: sink)
      return (CommandIO(scanProgress: { line.update($0) }), line)
    case .lookups?:
      return lookups(invocation, context, terminal: terminal, sink: sink)
    case .export?:
      return export(invocation, context, environment: environment, sink: sink)
    }
  }

  /// `user show`: the progress line for many lookups on a terminal; with `--jsonl`, each account's
  /// line as its lookup completes.
  private static func lookups(_ invocation: Invocation, _ context: ShellContext, terminal: Bool, sink: StandardSink)
    -> (io: CommandIO, display: (any ProgressDisplay)?)
  {
    let progress = terminal ? ProgressLine(sink: sink) : nil
    var io = CommandIO()
    if invocation[.jsonl], !invocation[.json] {
      let output = RedactingSink(sink, redactor: context.redactor)
      let reveal = invocation.output(.showTokens)
      io.lookupStream = { lookup in
        // The progress line goes away while a result line is written; the next update redraws it.
        progress?.clear()
        output.out(CommandResult.lookupJSON(lookup, revealTokens: reveal).compactText + "\n")
      }
      // `… --jsonl | head`: once nobody reads the lines, the input is read no further.
      io.lookupShouldStop = { StandardStreams.hasFailed(1) }
    }
    if let progress { io.lookupProgress = { done, total in progress.update(done: done, total: total) } }
    return (io, progress)
  }

  /// `user export`: the records on standard output as they come, notes and the count on standard
  /// error, a progress line there on a terminal, and `--db` through PostgresExport.
  private static func export(
    _ invocation: Invocation, _ context: ShellContext, environment: [String: String], sink: StandardSink
  ) -> (io: CommandIO, display: (any ProgressDisplay)?) {
    let showProgress = Terminal.stderrIsTTY && (environment["CI"] ?? "").isEmpty
    let progress = showProgress ? ExportProgress(sink: sink) : nil
    let redactor = context.redactor
    if let variable = invocation[.databaseURLEnv], let url = environment[variable] {
      for secret in DatabaseURL.secrets(in: url) { redactor.register(secret) }
    }
    if let url = invocation[.databaseURL] {
      let secrets = DatabaseURL.secrets(in: url)
      for secret in secrets { redactor.register(secret) }
      if !secrets.isEmpty { sink.err(passwordInArgvWarning) }
    }
    let sharesTheTerminal = Terminal.stdoutIsTTY
    let write: @Sendable (String) -> String? = { text in
      // Records on the terminal the progress line is on: the line goes first, so that the first
      // record starts a line of its own (it is drawn again below them).
      if sharesTheTerminal { progress?.clear() }
      StandardStreams.write(text, to: 1)
      return StandardStreams.failure(1).map {
        $0 == EPIPE ? ExportOutput.readerGone : "standard output failed"
      }
    }
    let note: @Sendable (String) -> Void = { line in
      progress?.clear()
      sink.err(TerminalText.escape(redactor.redact(line)) + "\n")
    }
    var update: (@Sendable (Int) -> Void)?
    if let progress { update = { count in progress.update(count) } }
    let open: @Sendable (String, Double) async throws -> any AccountReader = { url, timeout in
      try await PostgresAccountReader.open(url, timeout: timeout, environment: environment)
    }
    let output = ExportOutput(
      write: write, note: note, progress: update, toTerminal: Terminal.stdoutIsTTY, openDatabase: open)
    return (CommandIO(exportOutput: output), progress)
  }

  static let passwordInArgvWarning =
    "warning: the --db URL holds a password, which other users of this machine can read in the process list while"
    + " the export runs. Leave it out of the URL and set PGPASSWORD or a line in ~/.pgpass (mode 0600), or pass the"
    + " whole URL in a variable: --db-env VAR.\n"
}
