import AuthCore
import Foundation
import JSONKit

/// Progress of a bulk change after one more account finished.
public struct BatchProgress: Sendable {
  public var record: BatchRecord
  public var done: Int
  public var total: Int
  public var failures: Int
  /// `--dry-run`: nothing is being changed.
  public var dryRun: Bool
}

/// Where `--report FILE` lines go.
public protocol BatchReportSink: AnyObject, Sendable {
  func write(_ record: BatchRecord) throws
  func close()
}

extension BatchRecord {
  /// The `--report` line: `{input, email, id, outcome, code, message}`.
  public var json: JSON {
    var object = JSONObject()
    object["input"] = .string(input)
    object["email"] = .optional(email)
    object["id"] = .optional(id)
    object["outcome"] = .string(outcome.rawValue)
    object["code"] = .optional(code)
    object["message"] = .string(message)
    return .object(object)
  }
}

/// `--report FILE`: a line per account as it finishes, written through at once (an interrupted
/// batch leaves the lines of what finished). Created with mode 0600: it lists accounts.
public final class BatchReportFile: BatchReportSink, Sendable {
  private let handle: Guarded<FileHandle>

  init(handle: FileHandle) { self.handle = Guarded(handle) }

  public static func open(_ path: String) throws -> any BatchReportSink {
    let fd = Foundation.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw AuthError(.usage, message: "Cannot write the report \(path): \(String(cString: strerror(errno))).")
    }
    return BatchReportFile(handle: FileHandle(fileDescriptor: fd, closeOnDealloc: true))
  }

  public func write(_ record: BatchRecord) throws {
    let line = Data((record.json.compactText + "\n").utf8)
    try handle.update { handle throws in try handle.write(contentsOf: line) }
  }

  public func close() { handle.update { try? $0.close() } }
}

extension BatchTally {
  /// The summary in the result model (`batch`).
  public func json(dryRun: Bool, pauses: Int, pausedSeconds: Double) -> JSON {
    var outcomes = JSONObject()
    for outcome in BatchOutcome.allCases { outcomes[outcome.rawValue] = .int(self[outcome]) }
    var byCode = JSONObject()
    for (code, count) in codes.sorted(by: { $0.key < $1.key }) { byCode[code] = .int(count) }
    return [
      "total": .int(total), "dry_run": .bool(dryRun), "outcomes": .object(outcomes), "codes": .object(byCode),
      "rate_limit_pauses": .int(pauses), "paused_seconds": .double((pausedSeconds * 10).rounded() / 10),
    ]
  }

  /// The closing lines: "300 accounts: 296 changed, 2 unchanged, 1 not found, 1 failed (rate_limited 1)."
  public func summaryLines(dryRun: Bool, pauses: Int, pausedSeconds: Double) -> [String] {
    var parts: [String] = []
    if dryRun {
      parts.append("\(self[.wouldChange]) would change")
    } else {
      parts.append("\(self[.changed]) changed")
    }
    parts.append("\(self[.unchanged]) unchanged")
    parts.append("\(self[.notFound]) not found")
    parts.append("\(self[.failed]) failed")
    var line = "\(total) account\(total == 1 ? "" : "s"): " + parts.joined(separator: ", ")
    if !codes.isEmpty {
      line += " (" + codes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
    }
    var lines = [line + "."]
    if dryRun { lines.append("Dry run: nothing was changed.") }
    if pauses > 0 {
      lines.append(
        "Rate limits slowed the batch down \(pauses) time\(pauses == 1 ? "" : "s") (\(String(format: "%.1f", pausedSeconds)) s in all).")
    }
    return lines
  }
}
