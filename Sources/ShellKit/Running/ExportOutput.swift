import AuthCore

/// What `user export` needs from the executable: standard output for the records, standard
/// error for the notes and the progress line, and the database reader of `--db`.
package struct ExportOutput: Sendable {
  /// What `write` says when the reader of a pipe has gone (`… | head -1`): it chose to stop, so
  /// the export ends without a word (exit 74, as any command whose output it stopped reading).
  package static let readerGone = "nobody reads the output any more"
  /// Writes text to standard output; nil when it was written, else why not (nobody reads it any
  /// more, `… | head`; a full disk).
  package var write: @Sendable (String) -> String?
  /// One line on standard error (a notice, the count at the end).
  package var note: @Sendable (String) -> Void
  /// The number of accounts written so far (a progress line on a terminal; nil: none).
  package var progress: (@Sendable (Int) -> Void)?
  /// Standard output is a terminal: hashes would land on the screen.
  package var toTerminal: Bool
  /// Opens `--db URL` with the request timeout (seconds); nil: not available in this build.
  package var openDatabase: (@Sendable (String, Double) async throws -> any AccountReader)?

  package init(
    write: @escaping @Sendable (String) -> String?, note: @escaping @Sendable (String) -> Void,
    progress: (@Sendable (Int) -> Void)? = nil, toTerminal: Bool,
    openDatabase: (@Sendable (String, Double) async throws -> any AccountReader)? = nil
  ) {
    self.write = write
    self.note = note
    self.progress = progress
    self.toTerminal = toTerminal
    self.openDatabase = openDatabase
  }
}
