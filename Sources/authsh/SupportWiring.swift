import AuthCore
import Foundation
import LineEditor
import ShellKit

/// What the support commands need from the executable: the "type the e-mail to confirm" prompt
/// on a terminal, `user show --jsonl` printed as each lookup completes, and the progress line.
enum SupportWiring {
  static func prepare(
    _ context: ShellContext, invocation: Invocation, environment: [String: String], sink: StandardSink
  ) -> ProgressLine? {
    guard invocation.spec.group == .support else { return nil }
    if Terminal.stdinIsTTY { context.linePrompter = TerminalLinePrompter(interrupts: nil) }
    guard invocation.spec.name == "user show" else { return nil }
    if invocation.has("--jsonl"), !invocation.has("--json") {
      let output = RedactingSink(sink, redactor: context.redactor)
      context.lookupStream = { lookup in output.out(CommandResult.lookupJSON(lookup).compactText + "\n") }
    }
    guard Terminal.stderrIsTTY, (environment["CI"] ?? "").isEmpty else { return nil }
    let progress = ProgressLine(sink: sink)
    context.lookupProgress = { done, total in progress.update(done: done, total: total) }
    return progress
  }
}

/// "Looked up 120/1000…" redrawn in place on standard error for many lookups, erased at the end.
final class ProgressLine: @unchecked Sendable {
  /// Fewer lookups than this show the spinner only.
  static let threshold = 20
  private let sink: StandardSink
  private let lock = NSLock()
  private var drawn = false
  private var lastPercent = -1
  /// Stops the spinner before the first progress line draws.
  var onFirstDraw: (@Sendable () -> Void)?

  init(sink: StandardSink) { self.sink = sink }

  func update(done: Int, total: Int) {
    guard total >= Self.threshold else { return }
    lock.lock()
    defer { lock.unlock() }
    let percent = done * 100 / max(total, 1)
    guard percent != lastPercent || done == total else { return }
    lastPercent = percent
    if !drawn { onFirstDraw?() }
    drawn = true
    sink.err("\r\u{1B}[KLooked up \(done)/\(total)…")
  }

  func clear() {
    lock.lock()
    defer { lock.unlock() }
    if drawn { sink.err("\r\u{1B}[K") }
    drawn = false
  }
}
