import AuthCore
import Essentials
import PostgresExport
import ShellKit

/// `user export`'s outputs: the records on standard output as they come, notes and the count on
/// standard error, a progress line there on a terminal, and `--db` through PostgresExport.
enum ExportWiring {
  static func prepare(
    _ context: ShellContext, invocation: Invocation, environment: [String: String], sink: StandardSink
  ) -> ExportProgress? {
    guard invocation.id == .userExport else { return nil }
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
    context.exportOutput = ExportOutput(
      write: write, note: note, progress: update, toTerminal: Terminal.stdoutIsTTY, openDatabase: open)
    return progress
  }

  static let passwordInArgvWarning =
    "warning: the --db URL holds a password, which other users of this machine can read in the process list while"
    + " the export runs. Leave it out of the URL and set PGPASSWORD or a line in ~/.pgpass (mode 0600), or pass the"
    + " whole URL in a variable: --db-env VAR.\n"
}

/// "Exported 12000 accounts…" redrawn in place on standard error, erased before any other line.
final class ExportProgress: ProgressDisplay {
  let line: RedrawnLine

  init(sink: StandardSink) { line = RedrawnLine { sink.err($0) } }

  func update(_ count: Int) { line.redraw { _, _ in "Exported \(count) accounts…" } }
}
