import AuthCore
import JSONKit

extension BatchRecord {
  /// A `--report` line read back; nil for a line that is not one.
  package init?(json: JSON) {
    guard let input = json["input"]?.string, let outcome = json["outcome"]?.string.flatMap(BatchOutcome.init(rawValue:))
    else {
      return nil
    }
    self.init(
      input: input, email: json["email"]?.string, id: json["id"]?.string, outcome: outcome, code: json["code"]?.string,
      message: json["message"]?.string ?? "")
  }
}

/// `--resume REPORT`: an earlier run's report read back, every account once (the last line about
/// an account wins: a resumed run appends its lines to the same report), split into what is
/// done and what is left to do.
package struct BatchResume: Sendable {
  /// Every account of the report, in the order first listed, with its latest line.
  package var records: [BatchRecord] = []
  /// Lines that are no report line.
  package var malformed: [(line: Int, text: String)] = []

  package init() {}

  /// The accounts still to do, as entries that remember their last outcome.
  package func pending(dryRun: Bool) -> [BatchEntry] {
    records.filter { !$0.outcome.isDone(dryRun: dryRun, code: $0.code) }.map {
      var entry = BatchInput.entry($0.input)
      entry.previous = $0.outcome
      return entry
    }
  }

  /// The accounts an earlier run finished: carried into a new `--report` and the counts.
  package func done(dryRun: Bool) -> [BatchRecord] {
    records.filter { $0.outcome.isDone(dryRun: dryRun, code: $0.code) }
  }

  static func read(_ lines: any InputLines, name: String) throws -> BatchResume {
    var resume = BatchResume()
    var index: [String: Int] = [:]
    var reader = PhysicalLines(lines: lines, name: name)
    while let (line, number) = try reader.nextContent() {
      guard let json = try? JSON.parse(line), let record = BatchRecord(json: json) else {
        resume.malformed.append((number, line))
        continue
      }
      let key = BatchEntry(input: record.input).key
      if let at = index[key] {
        resume.records[at] = record
      } else {
        index[key] = resume.records.count
        resume.records.append(record)
      }
      if resume.records.count > BatchInput.maximumEntries {
        throw AuthError(
          .usage,
          message: "\(name) names more than \(BatchInput.maximumEntries) accounts: it is no report of one batch.")
      }
    }
    guard resume.malformed.isEmpty || !resume.records.isEmpty else {
      throw AuthError(
        .usage,
        message:
          "\(name) is not a --report file: line \(resume.malformed[0].line) is no JSON line with an input and an outcome."
      )
    }
    return resume
  }
}
