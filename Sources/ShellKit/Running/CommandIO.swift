import AuthCore

/// What one run of a command writes to and listens to besides its result: the lines it prints as
/// it goes, its progress, and the signal that stops it. Made for each call by what runs the
/// command (the executable, the shell) and passed to `Command.run`; the default is silent, with
/// nothing streamed and nothing to stop it. Nothing here lives on the shared `ShellContext`, so
/// two commands never see each other's streams.
package struct CommandIO: Sendable {
  /// `user show --jsonl`: each account as its lookup completes, in completion order (nil: the
  /// lookups are only in the result).
  package var lookupStream: (@Sendable (UserLookup) -> Void)?
  /// `user show` of many accounts: (done, total) after each lookup; the total is nil while the
  /// input is still being read.
  package var lookupProgress: (@Sendable (_ done: Int, _ total: Int?) -> Void)?
  /// Whether `user show --jsonl` should stop reading its input (its reader went away).
  package var lookupShouldStop: (@Sendable () -> Bool)?
  /// A bulk change or an import: each account as it finishes, with the counts so far.
  package var batchProgress: (@Sendable (BatchProgress) -> Void)?
  /// A bulk change or an import: the first Ctrl-C or SIGTERM stops it from starting more accounts
  /// (what is in flight finishes and the report is written).
  package var batchStop: BatchStop?
  /// `user list --filter` that reads pages: after each page.
  package var scanProgress: (@Sendable (ScanProgress) -> Void)?
  /// Where `user export` writes (nil: it cannot run here, e.g. in the shell or a script).
  package var exportOutput: ExportOutput?

  package init(
    lookupStream: (@Sendable (UserLookup) -> Void)? = nil,
    lookupProgress: (@Sendable (_ done: Int, _ total: Int?) -> Void)? = nil,
    lookupShouldStop: (@Sendable () -> Bool)? = nil, batchProgress: (@Sendable (BatchProgress) -> Void)? = nil,
    batchStop: BatchStop? = nil, scanProgress: (@Sendable (ScanProgress) -> Void)? = nil,
    exportOutput: ExportOutput? = nil
  ) {
    self.lookupStream = lookupStream
    self.lookupProgress = lookupProgress
    self.lookupShouldStop = lookupShouldStop
    self.batchProgress = batchProgress
    self.batchStop = batchStop
    self.scanProgress = scanProgress
    self.exportOutput = exportOutput
  }

  /// Whether the run prints its results as it goes (no spinner over them).
  package var streams: Bool { lookupStream != nil || batchProgress != nil || exportOutput != nil }
}

/// What a run prints or draws while it goes, which its caller wires into a `CommandIO`: a command
/// type says which for a line (`Command.live`), so no caller asks for a command by name.
package enum LiveOutput: Sendable, Equatable {
  /// Each account of a bulk change (`--from`, `--resume`) or an import as it finishes; the run
  /// can be stopped between accounts.
  case batch
  /// Each lookup of `user show` (progress; with `--jsonl`, the lines themselves).
  case lookups
  /// The pages a filtered `user list` reads.
  case scan
  /// The records of `user export`, on standard output as they come.
  case export
}
