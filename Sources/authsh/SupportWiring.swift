import AuthCore
import Foundation
import ShellKit

/// What the support commands need from the executable: the "type the e-mail to confirm" prompt
/// on a terminal, `user show --jsonl` printed as each lookup completes, and the progress line.
enum SupportWiring {
  static func prepare(
    _ context: ShellContext, invocation: Invocation, environment: [String: String], sink: StandardSink
  ) -> (any ProgressDisplay)? {
    guard invocation.spec.group == .support else { return nil }
    // "Type the e-mail to confirm" through the password prompter's echoed question: the spinner
    // wrapped around that prompter pauses for it too.
    if context.passwordPrompter?.readsText == true { context.linePrompter = ContextLinePrompter(context) }
    if invocation.spec.takesBulkFrom, invocation.flags[FlagKey.bulkFrom.name] != nil {
      let terminal = Terminal.stderrIsTTY && (environment["CI"] ?? "").isEmpty
      let display = BatchProgressLine(sink: RedactingSink(sink, redactor: context.redactor), terminal: terminal, command: invocation.spec.name)
      context.batchProgress = { display.update($0) }
      return display
    }
    if invocation.id == .userList, invocation.flags[FlagKey.filter.name] != nil, Terminal.stderrIsTTY, (environment["CI"] ?? "").isEmpty {
      let line = ScanProgressLine(sink: sink)
      context.scanProgress = { line.update($0) }
      return line
    }
    guard invocation.id == .userShow else { return nil }
    let showProgress = Terminal.stderrIsTTY && (environment["CI"] ?? "").isEmpty
    let progress = showProgress ? ProgressLine(sink: sink) : nil
    if invocation[.jsonl], !invocation[.json] {
      let output = RedactingSink(sink, redactor: context.redactor)
      let reveal = invocation.output(.showTokens)
      context.lookupStream = { lookup in
        // The progress line goes away while a result line is written; the next update redraws it.
        progress?.clear()
        output.out(CommandResult.lookupJSON(lookup, revealTokens: reveal).compactText + "\n")
      }
      // `… --jsonl | head`: once nobody reads the lines, the input is read no further.
      context.lookupShouldStop = { StandardStreams.hasFailed(1) }
    }
    if let progress { context.lookupProgress = { done, total in progress.update(done: done, total: total) } }
    return progress
  }
}

/// A progress line the one-shot command stops the spinner for and erases at the end.
protocol ProgressDisplay: AnyObject, Sendable {
  var onFirstDraw: (@Sendable () -> Void)? { get set }
  func clear()
}

/// "Looked up 120/1000…" redrawn in place on standard error for many lookups, erased at the end.
final class ProgressLine: ProgressDisplay, Sendable {
  /// Fewer lookups than this show the spinner only.
  static let threshold = 20
  private let sink: StandardSink
  private struct State {
    var drawn = false
    var started = false
    var lastPercent = -1
    var onFirstDraw: (@Sendable () -> Void)?
  }
  private let state = Guarded(State())
  /// Stops the spinner before the first progress line draws.
  var onFirstDraw: (@Sendable () -> Void)? {
    get { state[\.onFirstDraw] }
    set { state[\.onFirstDraw] = newValue }
  }

  init(sink: StandardSink) { self.sink = sink }

  /// `total` is nil while the input is still being read.
  func update(done: Int, total: Int?) {
    guard (total ?? done) >= Self.threshold else { return }
    state.update { state in
      let percent = total.map { done * 100 / max($0, 1) } ?? done / 100
      guard percent != state.lastPercent || done == total || !state.drawn else { return }
      state.lastPercent = percent
      if !state.started { state.onFirstDraw?() }
      state.started = true
      state.drawn = true
      sink.err("\r\u{1B}[KLooked up \(done)" + (total.map { "/\($0)" } ?? "") + "…")
    }
  }

  func clear() {
    state.update { state in
      if state.drawn { sink.err("\r\u{1B}[K") }
      state.drawn = false
    }
  }
}

/// "Scanned 12,000 accounts (12 pages), 3 matches…" redrawn in place while `user list --filter`
/// reads Firebase's pages, erased at the end.
final class ScanProgressLine: ProgressDisplay, Sendable {
  private let sink: StandardSink
  private struct State {
    var drawn = false
    var onFirstDraw: (@Sendable () -> Void)?
  }
  private let state = Guarded(State())
  /// Stops the spinner before the first progress line draws.
  var onFirstDraw: (@Sendable () -> Void)? {
    get { state[\.onFirstDraw] }
    set { state[\.onFirstDraw] = newValue }
  }

  init(sink: StandardSink) { self.sink = sink }

  func update(_ progress: ScanProgress) {
    state.update { state in
      if !state.drawn { state.onFirstDraw?() }
      state.drawn = true
      let matches = progress.matches == 1 ? "1 match" : "\(progress.matches) matches"
      sink.err("\r\u{1B}[KScanned \(progress.scanned) accounts (\(progress.pages) page\(progress.pages == 1 ? "" : "s")), \(matches)…")
    }
  }

  func clear() {
    state.update { state in
      if state.drawn { sink.err("\r\u{1B}[K") }
      state.drawn = false
    }
  }
}
