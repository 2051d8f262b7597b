import AuthCore

/// A progress line the one-shot command stops the spinner for and erases at the end.
protocol ProgressDisplay: AnyObject, Sendable {
  var line: RedrawnLine { get }
}

extension ProgressDisplay {
  /// Stops the spinner before the first progress line draws.
  var onFirstDraw: (@Sendable () -> Void)? {
    get { line.onFirstDraw }
    set { line.onFirstDraw = newValue }
  }

  func clear() { line.clear() }
}

/// One status line on standard error, redrawn in place (`\r` and erase-line) and erased before
/// any other output: the shared part of the lookup, scan, batch and export progress lines.
final class RedrawnLine: Sendable {
  private let write: @Sendable (String) -> Void
  private struct State {
    var drawn = false
    var started = false
    /// The owner's throttle (the last percentage or draw time it showed).
    var mark = -1
    var onFirstDraw: (@Sendable () -> Void)?
  }
  private let state = Guarded(State())

  init(write: @escaping @Sendable (String) -> Void) { self.write = write }

  var onFirstDraw: (@Sendable () -> Void)? {
    get { state[\.onFirstDraw] }
    set { state[\.onFirstDraw] = newValue }
  }

  /// Draws what `text` returns (nil: leaves the line as it is). `text` runs under the line's lock
  /// with the owner's throttle mark and whether the line is on screen now.
  func redraw(_ text: (_ mark: inout Int, _ drawn: Bool) -> String?) {
    state.update { state in
      guard let line = text(&state.mark, state.drawn) else { return }
      if !state.started { state.onFirstDraw?() }
      state.started = true
      state.drawn = true
      write("\r\u{1B}[K" + line)
    }
  }

  func clear() {
    state.update { state in
      if state.drawn { write("\r\u{1B}[K") }
      state.drawn = false
    }
  }
}
