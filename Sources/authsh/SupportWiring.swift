import AuthCore
import Essentials
import JSONKit
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
    if invocation.spec.takesBulkFrom,
      invocation.flags[FlagKey.bulkFrom.name] != nil || invocation.flags[FlagKey.bulkResume.name] != nil
    {
      let terminal = Terminal.stderrIsTTY && (environment["CI"] ?? "").isEmpty
      let display = BatchProgressLine(
        sink: RedactingSink(sink, redactor: context.redactor), terminal: terminal, command: invocation.spec.name)
      context.batchProgress = { display.update($0) }
      return display
    }
    // `user import`: the progress line with rate and ETA on a terminal (the report has a line for
    // every account; a line each on standard error would be a million lines in a CI log).
    if invocation.id == .userImport, Terminal.stderrIsTTY, (environment["CI"] ?? "").isEmpty,
      !invocation[.importDryRun]
    {
      let display = BatchProgressLine(
        sink: RedactingSink(sink, redactor: context.redactor), terminal: true, command: invocation.spec.name)
      context.batchProgress = { display.update($0) }
      return display
    }
    if invocation.id == .userList, invocation.flags[FlagKey.filter.name] != nil, Terminal.stderrIsTTY,
      (environment["CI"] ?? "").isEmpty
    {
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

/// "Looked up 120/1000…" redrawn in place on standard error for many lookups, erased at the end.
final class ProgressLine: ProgressDisplay {
  /// Fewer lookups than this show the spinner only.
  static let threshold = 20
  let line: RedrawnLine

  init(sink: StandardSink) { line = RedrawnLine { sink.err($0) } }

  /// `total` is nil while the input is still being read.
  func update(done: Int, total: Int?) {
    guard (total ?? done) >= Self.threshold else { return }
    line.redraw { lastPercent, drawn in
      let percent = total.map { done * 100 / max($0, 1) } ?? done / 100
      guard percent != lastPercent || done == total || !drawn else { return nil }
      lastPercent = percent
      return "Looked up \(done)" + (total.map { "/\($0)" } ?? "") + "…"
    }
  }
}

/// "Scanned 12,000 accounts (12 pages), 3 matches…" redrawn in place while `user list --filter`
/// reads Firebase's pages, erased at the end.
final class ScanProgressLine: ProgressDisplay {
  let line: RedrawnLine

  init(sink: StandardSink) { line = RedrawnLine { sink.err($0) } }

  func update(_ progress: ScanProgress) {
    line.redraw { _, _ in
      let matches = progress.matches == 1 ? "1 match" : "\(progress.matches) matches"
      return
        "Scanned \(progress.scanned) accounts (\(progress.pages) page\(progress.pages == 1 ? "" : "s")), \(matches)…"
    }
  }
}
