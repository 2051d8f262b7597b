/// Reads lines for the shell: libedit on a terminal (LineEditor target), scripted in tests.
package protocol LineReader: AnyObject {
  /// The next line without its newline; nil at end of input (Ctrl-D).
  func readLine(prompt: String) -> String?
  /// Adds a line to the in-memory history (Up recalls it). `persist` says whether the shell
  /// also wrote it to the history file; the shell writes that file itself (`HistoryFile`), so
  /// a reader never needs to, and lines carrying a secret arrive with `persist == false`.
  func addHistory(_ line: String, persist: Bool)
}

/// Feeds a fixed list of lines (unit tests, transcripts).
package final class ScriptedLineReader: LineReader {
  package private(set) var lines: [String]
  package private(set) var prompts: [String] = []
  package private(set) var history: [(line: String, persisted: Bool)] = []

  package init(_ lines: [String]) { self.lines = lines }

  package func readLine(prompt: String) -> String? {
    prompts.append(prompt)
    return lines.isEmpty ? nil : lines.removeFirst()
  }

  package func addHistory(_ line: String, persist: Bool) { history.append((line, persist)) }
}
