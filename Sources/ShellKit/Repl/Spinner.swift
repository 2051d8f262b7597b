import AuthCore
import Essentials

/// Shows the specs' loading words ("Signing in…") while a request runs. Injected, so tests and
/// non-interactive runs have none.
package protocol Spinner: Sendable {
  func start(_ text: String)
  func stop()
}

/// A spinner on standard error: it appears only after a short delay (fast requests show
/// nothing), redraws one line in place and erases it when stopped.
package final class TerminalSpinner: Spinner, Sendable {
  private let output: any OutputSink
  private let frames: [String]
  private let delay: Duration
  private let interval: Duration
  private struct State {
    var task: Task<Void, Never>?
    var drawn = false
    var generation = 0
  }
  private let state = Guarded(State())

  package init(
    output: any OutputSink, unicode: Bool = true, delay: Duration = .milliseconds(150),
    interval: Duration = .milliseconds(90)
  ) {
    self.output = output
    self.frames = unicode ? ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] : ["|", "/", "-", "\\"]
    self.delay = delay
    self.interval = interval
  }

  package func start(_ text: String) {
    stop()
    let frames = frames
    let delay = delay
    let interval = interval
    state.update { state in
      state.generation += 1
      let mine = state.generation
      state.task = Task { [weak self] in
        try? await Task.sleep(for: delay)
        var index = 0
        while !Task.isCancelled {
          guard let self, self.draw("\r\(frames[index % frames.count]) \(text)", generation: mine) else { return }
          index += 1
          try? await Task.sleep(for: interval)
        }
      }
    }
  }

  package func stop() {
    state.update { state in
      state.generation += 1
      state.task?.cancel()
      state.task = nil
      let erase = state.drawn
      state.drawn = false
      if erase { output.err("\r\u{1B}[K") }
    }
  }

  /// Draws a frame unless the spinner was stopped since; false when it was.
  private func draw(_ frame: String, generation mine: Int) -> Bool {
    state.update { state in
      guard mine == state.generation else { return false }
      output.err(frame)
      state.drawn = true
      return true
    }
  }
}

/// Stops the spinner while a password is asked for, so the prompt is not drawn over.
package struct SpinnerPausingPrompter: PasswordPrompter {
  let base: any PasswordPrompter
  let spinner: any Spinner
  let text: String

  package init(base: any PasswordPrompter, spinner: any Spinner, text: String) {
    self.base = base
    self.spinner = spinner
    self.text = text
  }

  package func readPassword(prompt: String) -> String? {
    spinner.stop()
    let password = base.readPassword(prompt: prompt)
    if password != nil, !Task.isCancelled { spinner.start(text) }
    return password
  }

  package func readPassword(prompt: String, ifInterrupted note: String) -> String? {
    spinner.stop()
    let password = base.readPassword(prompt: prompt, ifInterrupted: note)
    if password != nil, !Task.isCancelled { spinner.start(text) }
    return password
  }

  package var readsText: Bool { base.readsText }

  package func readText(prompt: String) -> String? {
    spinner.stop()
    let text = base.readText(prompt: prompt)
    if text != nil, !Task.isCancelled { spinner.start(self.text) }
    return text
  }
}
