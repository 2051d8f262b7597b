import AuthCore
import ShellKit

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

/// "Exported 12000 accounts…" redrawn in place on standard error, erased before any other line.
final class ExportProgress: ProgressDisplay {
  let line: RedrawnLine

  init(sink: StandardSink) { line = RedrawnLine { sink.err($0) } }

  func update(_ count: Int) { line.redraw { _, _ in "Exported \(count) accounts…" } }
}
