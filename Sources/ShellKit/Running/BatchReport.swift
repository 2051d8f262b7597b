import AuthCore
import Essentials
import JSONKit

#if canImport(Glibc)
  import Glibc
#endif

/// Progress of a bulk change after one more account finished.
package struct BatchProgress: Sendable {
  package var record: BatchRecord
  package var done: Int
  package var total: Int
  package var failures: Int
  /// `--dry-run`: nothing is being changed.
  package var dryRun: Bool
  /// `--resume`: accounts an earlier run finished, counted in `done` (not in the rate).
  package var carried = 0
}

/// Where `--report FILE` lines go.
package protocol BatchReportSink: AnyObject, Sendable {
  func write(_ record: BatchRecord) throws
  /// One line of another shape (`user import`'s outcomes).
  func write(json: JSON) throws
  func close()
}

extension BatchReportSink {
  package func write(json: JSON) throws {}
}

extension BatchRecord {
  /// The `--report` line: `{input, email, id, outcome, code, message}`.
  package var json: JSON {
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
package final class BatchReportFile: BatchReportSink, Sendable {
  /// The file's descriptor; -1 once closed.
  private let descriptor: Guarded<Int32>

  init(descriptor: Int32) { self.descriptor = Guarded(descriptor) }

  package static func open(_ path: String, append: Bool = false) throws -> any BatchReportSink {
    do {
      let fd = try append ? Descriptor.openForAppending(path) : Descriptor.create(path, mode: 0o600)
      // A run killed mid-line (or out of disk space) left a torn last line: the new lines start
      // on a line of their own, and `--resume` passes over the torn one.
      if append, endsTorn(path), let failure = Descriptor.writeAll(fd, [0x0A]).failure {
        Descriptor.release(fd)
        throw SystemError(failure)
      }
      return BatchReportFile(descriptor: fd)
    } catch {
      throw AuthError(.usage, message: "Cannot write the report \(path): \(error).")
    }
  }

  /// Whether the file's last byte is not a line break (an empty file is not torn).
  static func endsTorn(_ path: String) -> Bool {
    guard let fd = try? Descriptor.openForReading(path) else { return false }
    defer { Descriptor.release(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_size > 0 else { return false }
    var last: UInt8 = 0
    return pread(fd, &last, 1, off_t(info.st_size - 1)) == 1 && last != 0x0A
  }

  package func write(_ record: BatchRecord) throws { try write(json: record.json) }

  package func write(json: JSON) throws {
    let line = Array((json.compactText + "\n").utf8)
    try descriptor.update { fd throws in
      guard fd >= 0 else { throw SystemError(EBADF) }
      if let failure = Descriptor.writeAll(fd, line).failure { throw SystemError(failure) }
    }
  }

  package func close() {
    descriptor.update { fd in
      if fd >= 0 { Descriptor.release(fd) }
      fd = -1
    }
  }

  deinit { close() }
}

extension BatchTally {
  /// The summary in the result model (`batch`).
  package func json(dryRun: Bool, pauses: Int, pausedSeconds: Double) -> JSON {
    var outcomes = JSONObject()
    for outcome in BatchOutcome.allCases { outcomes[outcome.rawValue] = .int(self[outcome]) }
    var byCode = JSONObject()
    for (code, count) in codes.sorted(by: { $0.key < $1.key }) { byCode[code] = .int(count) }
    return [
      "total": .int(total), "dry_run": .bool(dryRun), "outcomes": .object(outcomes), "codes": .object(byCode),
      "duplicates": .int(duplicates),
      "rate_limit_pauses": .int(pauses), "paused_seconds": .double((pausedSeconds * 10).rounded() / 10),
    ]
  }

  /// The closing lines: "300 accounts: 296 changed, 2 unchanged, 1 not found, 1 failed (rate_limited 1)."
  package func summaryLines(dryRun: Bool, pauses: Int, pausedSeconds: Double) -> [String] {
    var parts: [String] = []
    if dryRun {
      parts.append("\(self[.wouldChange]) would change")
    } else {
      parts.append("\(self[.changed]) changed")
    }
    parts.append("\(self[.unchanged]) unchanged")
    parts.append("\(self[.notFound]) not found")
    // The outcomes of a batch that met the backend's limits or was stopped, only when they happen.
    for (outcome, words) in [(BatchOutcome.notSupported, "not supported")] where self[outcome] > 0 {
      parts.append("\(self[outcome]) \(words)")
    }
    parts.append("\(self[.failed]) failed")
    for (outcome, words) in [(BatchOutcome.unknown, "unknown"), (.notStarted, "not started")] where self[outcome] > 0 {
      parts.append("\(self[outcome]) \(words)")
    }
    var line = "\(total) account\(total == 1 ? "" : "s"): " + parts.joined(separator: ", ")
    if !codes.isEmpty {
      line += " (" + codes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
    }
    var lines = [line + "."]
    if duplicates > 0 {
      lines.append("\(duplicates) line\(duplicates == 1 ? "" : "s") named an account already listed (counted once).")
    }
    if self[.unknown] > 0 {
      lines.append(
        "\(self[.unknown]) account\(self[.unknown] == 1 ? "" : "s") got no answer: the change may have been applied. Check them before trying again."
      )
    }
    if dryRun { lines.append("Dry run: nothing was changed.") }
    if pauses > 0 {
      lines.append(
        "Rate limits slowed the batch down \(pauses) time\(pauses == 1 ? "" : "s") (\(NumberText.fixed(pausedSeconds, places: 1)) s in all)."
      )
    }
    return lines
  }
}
