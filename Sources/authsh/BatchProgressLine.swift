import AuthCore
import Essentials
import ShellKit

/// The progress of a bulk change on standard error. On a terminal one line redrawn in place
/// ("user confirm 120/1000 · 35/s · ETA 25s · 2 failed"), at most ten times a second and at the
/// end, erased before the summary; otherwise a plain line per account ("12/1000 changed
/// ada@example.com: Confirmed …"), which a log keeps.
final class BatchProgressLine: ProgressDisplay {
  private let sink: any OutputSink
  private let terminal: Bool
  private let command: String
  private let started = DispatchTime.now().uptimeNanoseconds
  /// When the first outcome came, and how many were done then: the rate counts from there (an
  /// import checks its whole file before it sends anything, which is no part of the rate).
  private let first = Guarded<(time: UInt64, done: Int)?>(nil)
  let line: RedrawnLine

  init(sink: any OutputSink, terminal: Bool, command: String) {
    self.sink = sink
    self.terminal = terminal
    self.command = command
    line = RedrawnLine { sink.err($0) }
  }

  func update(_ progress: BatchProgress) {
    guard terminal else {
      let record = progress.record
      let who = TerminalText.escape(record.input)
      let code = record.code.map { " (\($0))" } ?? ""
      sink.err(
        "\(progress.done)/\(progress.total) \(record.outcome.rawValue) \(who): \(TerminalText.escape(record.message))\(code)\n"
      )
      return
    }
    line.redraw { lastDraw, drawn in
      let now = DispatchTime.now().uptimeNanoseconds
      // At most ten times a second, and always the first and the last.
      guard Int(now - started) - lastDraw >= 100_000_000 || progress.done == progress.total || !drawn else {
        return nil
      }
      lastDraw = Int(now - started)
      let (since, doneThen) = first.update { first in
        if first == nil { first = (now, max(progress.done, progress.carried)) }
        return first!
      }
      let seconds = max(Double(now - since) / 1e9, 0.001)
      let rate = Double(progress.done - doneThen) / seconds
      var parts = ["\(command) \(progress.done)/\(progress.total)", NumberText.fixed(rate, places: 0) + "/s"]
      if progress.done < progress.total, rate > 0 {
        parts.append("ETA " + Self.duration(Double(progress.total - progress.done) / rate))
      }
      parts.append("\(progress.failures) failed")
      if progress.dryRun { parts.append("dry run") }
      return parts.joined(separator: " · ")
    }
  }

  static func duration(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded(.up))
    if whole < 60 { return "\(whole)s" }
    if whole < 3600 { return "\(whole / 60)m\(NumberText.zeroPadded(whole % 60, width: 2))s" }
    return "\(whole / 3600)h\(NumberText.zeroPadded(whole % 3600 / 60, width: 2))m"
  }
}
