@preconcurrency import CLibEdit
import ShellKit

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The shell's line reader on a terminal: libedit (readline compatibility API) with Tab
/// completion through a closure, in-memory history (the shell decides what reaches the history
/// file), `~/.editrc` read under the name `authsh`, and Ctrl-C that clears the line instead of
/// ending the process. Not a terminal → plain lines from standard input, no prompt.
///
/// libedit keeps global state, so there is one editor per process; create one reader.
package final class EditLineReader: LineReader {
  /// Candidates for the text before the cursor (the shell's `Completer`).
  package typealias Complete = (_ linePrefix: String) -> [CompletionCandidate]
  /// Grey text to show after the cursor for the text before it (the shell's `Hinter`).
  package typealias Hint = (_ linePrefix: String) -> String?

  private let interrupts: Interrupts?
  private let wake: WakePipe?
  private let isTerminal: Bool
  private var lastAdded: String?

  package init(interrupts: Interrupts?, historyLimit: Int = 1000, hint: Hint? = nil, complete: @escaping Complete) {
    self.interrupts = interrupts
    self.wake = WakePipe()
    self.isTerminal = isatty(0) != 0 && isatty(1) != 0
    guard isTerminal else { return }
    EditorState.complete = complete
    EditorState.hint = hint
    EditorState.wake = wake
    EditLineReader.configureOnce(historyLimit: historyLimit)
  }

  deinit {
    if isTerminal {
      EditorState.complete = nil
      EditorState.hint = nil
      EditorState.wake = nil
    }
  }

  package func readLine(prompt: String) -> String? {
    guard isTerminal else { return Swift.readLine(strippingNewline: true) }
    while true {
      fflush(nil)
      wake?.drain()
      EditorState.interrupted = false
      EditorState.promptWidth = prompt.count
      // libedit's own SIGWINCH handling is off with its signal handling: pick up resizes here.
      rl_resize_terminal()
      if CharacterMode.endOfFileTypedAhead(fd: 0) {
        // Ctrl-D typed while the last command ran: the shell ends now, as it would at the prompt.
        EditorState.emit(prompt + "\n")
        return nil
      }
      let wake = self.wake
      let id = interrupts?.push { wake?.wake() }
      let mode = CharacterMode(fd: 0)
      let raw = prompt.withCString { CLibEdit.readline($0) }
      mode.restore()
      if let id { interrupts?.pop(id) }
      guard let raw else {
        // Ctrl-D on an empty line: end the prompt's line before the shell exits.
        EditorState.emit("\n")
        return nil
      }
      let line = String(cString: raw)
      free(raw)
      if EditorState.interrupted { continue }
      return line
    }
  }

  package func addHistory(_ line: String, persist: Bool) {
    guard isTerminal, line != lastAdded else { return }
    lastAdded = line
    _ = CLibEdit.add_history(line)
  }

  // MARK: libedit set-up

  nonisolated(unsafe) private static var configured = false

  private static func configureOnce(historyLimit: Int) {
    guard !configured else { return }
    configured = true
    _ = setlocale(LC_CTYPE, "")
    rl_readline_name = UnsafePointer(strdup("authsh"))
    rl_catch_signals = 0
    rl_getc_function = EditorState.getc
    rl_basic_word_break_characters = UnsafePointer(strdup(" \t\n"))
    rl_attempted_completion_function = EditorState.attemptCompletion
    using_history()
    stifle_history(Int32(historyLimit))
    _ = rl_initialize()
    // Space inserts itself, then draws the argument hint (libedit has no hint API).
    _ = rl_add_defun("authsh-space-hint", EditorState.spaceWithHint, 32)
  }
}

/// State the C callbacks reach. libedit calls them on the thread blocked in `readline`.
enum EditorState {
  nonisolated(unsafe) static var complete: EditLineReader.Complete?
  nonisolated(unsafe) static var hint: EditLineReader.Hint?
  nonisolated(unsafe) static var hintShown = false
  nonisolated(unsafe) static var promptWidth = 0
  nonisolated(unsafe) static var wake: WakePipe?
  nonisolated(unsafe) static var interrupted = false
  nonisolated(unsafe) static var matches: [String] = []
  nonisolated(unsafe) static var matchIndex = 0

  /// Reads one character; on Ctrl-C marks the line as abandoned and ends it with a newline.
  static let getc: @convention(c) (UnsafeMutablePointer<FILE>?) -> Int32 = { _ in
    let next = TerminalInput.nextScalar(wake: EditorState.wake)
    EditorState.eraseHint()
    switch next {
    case .scalar(let value): return Int32(bitPattern: value)
    case .endOfInput: return -1
    case .interrupted:
      EditorState.interrupted = true
      if rl_point == rl_end { EditorState.emit("^C") }
      return 10
    }
  }

  /// Bound to the space key: inserts the space, redraws, and shows the hint in grey after the
  /// cursor when the cursor is at the end and the hint fits on the terminal's line.
  static let spaceWithHint: @convention(c) (Int32, Int32) -> Int32 = { _, _ in
    // libedit refreshes nothing after a bound function, and a forced refresh redraws from the
    // start of the edit area without moving there: move there first.
    let width = terminalWidth()
    let rows = (EditorState.promptWidth + Int(rl_point)) / width
    EditorState.emit(rows > 0 ? "\u{1B}[\(rows)A\r" : "\r")
    _ = rl_insert_text(" ")
    rl_forced_update_display()
    guard rl_point == rl_end, let hint = EditorState.hint, let line = rl_line_buffer.map({ String(cString: $0) }) else {
      return 0
    }
    let prefix = line + " "
    guard let text = hint(prefix).map(TerminalText.escape) else { return 0 }
    let column = (EditorState.promptWidth + prefix.count) % width
    let room = width - column - 1
    guard room >= 8 else { return 0 }
    let shown = text.count <= room ? text : String(text.prefix(room - 3)) + "..."
    EditorState.emit("\u{1B}[90m" + shown + "\u{1B}[0m\u{1B}[\(shown.count)D")
    EditorState.hintShown = true
    return 0
  }

  static func terminalWidth() -> Int {
    var size = winsize()
    return ioctl(1, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
  }

  /// Writes to libedit's output stream, in order with what libedit wrote.
  static func emit(_ text: String) {
    guard let stream = rl_outstream else { return }
    fputs(text, stream)
    fflush(stream)
  }

  /// Clears a hint before libedit draws again (the cursor is where the hint starts).
  static func eraseHint() {
    guard hintShown else { return }
    hintShown = false
    emit("\u{1B}[K")
  }

  static let generator: @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>? = { _, state in
    if state == 0 { EditorState.matchIndex = 0 }
    guard EditorState.matchIndex < EditorState.matches.count else { return nil }
    defer { EditorState.matchIndex += 1 }
    return strdup(EditorState.matches[EditorState.matchIndex])
  }

  static let attemptCompletion:
    @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = {
      text, _, end in
      rl_attempted_completion_over = 1
      let buffer = rl_line_buffer.map { String(cString: $0) } ?? ""
      let prefix = String(String.UnicodeScalarView(buffer.unicodeScalars.prefix(max(0, Int(end)))))
      let candidates = EditorState.complete?(prefix) ?? []
      EditorState.matches = candidates.map(\.value)
      EditorState.matchIndex = 0
      rl_completion_append_character = candidates.count == 1 && !candidates[0].isComplete ? 0 : 32
      guard !candidates.isEmpty, let text else { return nil }
      return rl_completion_matches(text, EditorState.generator)
    }
}
