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

/// The spinner of the command under way and its words: a prompt stops it while it asks and starts
/// it again once answered. Set around one command's task (`PromptPause.$current.withValue`) by
/// what runs it (the executable, the shell), so the context's prompter never changes.
package struct PromptPause: Sendable {
  let spinner: any Spinner
  let text: String

  package init(spinner: any Spinner, text: String) {
    self.spinner = spinner
    self.text = text
  }

  @TaskLocal package static var current: PromptPause?

  /// Runs `ask` with the spinner of the call under way stopped.
  static func pausing<T>(_ ask: () -> T?) -> T? {
    guard let pause = current else { return ask() }
    pause.spinner.stop()
    let answer = ask()
    if answer != nil, !Task.isCancelled { pause.spinner.start(pause.text) }
    return answer
  }
}

/// A prompter that stops the spinner of the command under way (`PromptPause`) while it asks, so
/// the prompt is not drawn over.
package struct SpinnerPausingPrompter: PasswordPrompter {
  let base: any PasswordPrompter

  package init(base: any PasswordPrompter) { self.base = base }

  package func readPassword(prompt: String) -> String? {
    PromptPause.pausing { base.readPassword(prompt: prompt) }
  }

  package func readPassword(prompt: String, ifInterrupted note: String) -> String? {
    PromptPause.pausing { base.readPassword(prompt: prompt, ifInterrupted: note) }
  }

  package var readsText: Bool { base.readsText }

  package func readText(prompt: String) -> String? { PromptPause.pausing { base.readText(prompt: prompt) } }
}
