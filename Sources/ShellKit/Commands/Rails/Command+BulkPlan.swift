import AuthCore
import Essentials

/// What a bulk change works on and where its report goes: the accounts of `--from FILE` (and the
/// EMAIL argument), or what `--resume REPORT` leaves to do; `--report FILE`, or REPORT appended to.
extension Command {
  static func write(_ record: BatchRecord, to report: (any BatchReportSink)?, failure: inout AuthError?) {
    do {
      try report?.write(record)
    } catch {
      // Just the reason: the caller says which report, and what was done all the same.
      if failure == nil { failure = AuthError(.outputNotWritten, message: SystemError.reason(error)) }
    }
  }

  /// A report that failed once the batch was under way: an I/O error (`output_not_written`, exit
  /// 74), not a usage one, that says what the batch did all the same (`done`).
  static func reportNotWritten(_ failure: AuthError, _ invocation: Invocation, done: String) -> AuthError {
    let path = invocation[.bulkReport] ?? invocation[.bulkResume] ?? "the report"
    return AuthError(.outputNotWritten, message: "Cannot write the report \(path): \(failure.message). \(done)")
  }

  /// `--report FILE` (emptied, and given the lines an earlier run finished first when resuming),
  /// else `--resume REPORT` itself, appended to (also when `--report` names REPORT: the batch's
  /// own command line, `--report` and all, with `--resume` added).
  /// `listFirst`: before the first change, a copy of the batch's list is kept beside the report
  /// (`REPORT.batch`, mode 0600), so that `--resume REPORT` after a `kill -9` knows the accounts
  /// the report never got to.
  func openReport(_ invocation: Invocation, _ context: ShellContext, plan: BulkPlan, listFirst: Bool = false) throws
    -> (any BatchReportSink)?
  {
    let resume = invocation[.bulkResume]
    if let path = invocation[.bulkReport], resume.map({ !Self.sameFile(path, $0) }) ?? true {
      let report = try context.openBatchReport(path, false)
      var failure: AuthError?
      for record in plan.carried { Self.write(record, to: report, failure: &failure) }
      if listFirst { try Self.writeBatchList(plan.list, report: path) }
      if let failure {
        throw AuthError(.usage, message: "Cannot write the report \(path): \(failure.message); nothing was sent.")
      }
      return report
    }
    return try resume.map { try context.openBatchReport($0, true) }
  }

  /// The copy of a batch's list kept beside its report (`REPORT.batch`).
  static func batchListPath(_ report: String) -> String { report + ".batch" }

  /// Writes the list's accounts (one input a line) beside a report that is a regular file (a
  /// report to a pipe or a device has nothing to resume). A copy that cannot be written stops the
  /// batch before anything is sent.
  static func writeBatchList(_ list: BatchList, report: String) throws {
    var info = stat()
    guard stat(report, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
    let path = batchListPath(report)
    let text = list.entries.filter { $0.problem == nil }.map { $0.input + "\n" }.joined()
    do {
      let fd = try Descriptor.create(path, mode: 0o600)
      defer { Descriptor.release(fd) }
      if let failure = Descriptor.writeAll(fd, Array(text.utf8)).failure { throw SystemError(failure) }
    } catch {
      throw AuthError(.usage, message: "Cannot write the batch's list \(path): \(error); nothing was sent.")
    }
  }

  /// The accounts of the list kept beside `report` that the report has no line for: a run killed
  /// (`kill -9`) before it got to them. Empty when there is no list.
  func unreported(_ report: String, _ resume: BatchResume, _ context: ShellContext) -> [BatchEntry] {
    let path = Self.batchListPath(report)
    var info = stat()
    guard report != "-", stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
      let fd = try? Descriptor.openForReading(path)
    else { return [] }
    let lines = DescriptorLines(descriptor: fd, closeAtEnd: true, limit: BatchInput.recordLimit)
    let reported = Set(resume.records.map { BatchEntry(input: $0.input).key })
    var entries: [BatchEntry] = []
    while let line = try? lines.nextLine() {
      let input = line.trimmingWhitespace
      if input.isEmpty { continue }
      let entry = BatchInput.entry(input)
      if !reported.contains(entry.key) { entries.append(entry) }
    }
    return entries
  }

  /// Whether two paths name one file (the same text, or the same device and inode).
  static func sameFile(_ one: String, _ other: String) -> Bool {
    if one == other { return true }
    var first = stat()
    var second = stat()
    guard stat(one, &first) == 0, stat(other, &second) == 0 else { return false }
    return first.st_dev == second.st_dev && first.st_ino == second.st_ino
  }

  /// Nil when every account was changed or already as asked; else the first failure (an outage
  /// stays an outage: exit 3), or `user_not_found` when only accounts were missing (exit 1).
  static func batchFailure(_ tally: BatchTally) -> AuthError? {
    guard tally.problems > 0 else { return nil }
    if var failure = tally.firstFailure {
      failure.message = "\(tally[.failed]) of \(tally.total) accounts failed; the first: \(failure.message)"
      return failure
    }
    if tally[.unknown] > 0 {
      return AuthError(
        .timeout,
        message:
          "\(tally[.unknown]) of \(tally.total) accounts got no answer: the change may have been applied; check them (--resume looks them up again)."
      )
    }
    if tally[.failed] > 0 {
      return AuthError(
        .validationFailed, message: "\(tally[.failed]) of \(tally.total) lines are not an address or id.")
    }
    return AuthError(.userNotFound, message: "\(tally[.notFound]) of \(tally.total) accounts not found.")
  }

  /// The accounts to work on: the EMAIL argument (if any) then `--from`, or what `--resume`
  /// leaves to do.
  func bulkPlan(_ invocation: Invocation, _ context: ShellContext, stop: BatchStop?, dryRun: Bool) throws -> BulkPlan {
    if let path = invocation[.bulkResume] {
      let resume = try BatchResume.read(
        try openBulkLines(path, context, stop: stop), name: path == "-" ? "standard input" : path)
      // The batch's own command with --resume added: its --from must be the list of the report.
      if invocation[.bulkFrom] != nil {
        try checkSameBatch(invocation, context, stop: stop, resume: resume, report: path)
      }
      var list = BatchList()
      for entry in resume.pending(dryRun: dryRun) { list.add(entry) }
      for entry in unreported(path, resume, context) { list.add(entry) }
      return BulkPlan(
        list: list, carried: resume.done(dryRun: dryRun),
        nothingToDo: "Nothing left to do: every account in \(path) has its outcome.")
    }
    let path = invocation[.bulkFrom] ?? "-"
    let name = path == "-" ? "standard input" : path
    let arguments = [invocation[.bulkUser]].compactMap { $0?.trimmingWhitespace }.filter { !$0.isEmpty }
    let list = try BatchInput.read(
      arguments: arguments, lines: try openBulkLines(path, context, stop: stop), name: name,
      onlyFailed: invocation[.onlyFailed])
    // A report with nothing failed is nothing to do (the caller says so); an empty list is a mistake.
    guard !list.entries.isEmpty || invocation[.onlyFailed] else {
      throw AuthError(.usage, message: "\(path == "-" ? "Standard input" : path) has no addresses (one per line).")
    }
    return BulkPlan(list: list, carried: [], nothingToDo: "No failed accounts in \(path): nothing to do.")
  }

  /// `--from` beside `--resume`: the accounts it lists (with `--only-failed`, its failures) must be
  /// those of the report, else the report is of another batch and nothing is sent.
  func checkSameBatch(
    _ invocation: Invocation, _ context: ShellContext, stop: BatchStop?, resume: BatchResume, report: String
  ) throws {
    let path = invocation[.bulkFrom] ?? "-"
    let arguments = [invocation[.bulkUser]].compactMap { $0?.trimmingWhitespace }.filter { !$0.isEmpty }
    let listed = try BatchInput.read(
      arguments: arguments, lines: try openBulkLines(path, context, stop: stop),
      name: path == "-" ? "standard input" : path,
      onlyFailed: invocation[.onlyFailed]
    ).entries.map(\.key)
    let reported = Set(resume.records.map { BatchEntry(input: $0.input).key }).union(
      unreported(report, resume, context).map(\.key))
    let onlyListed = listed.filter { !reported.contains($0) }
    let listedKeys = Set(listed)
    let onlyReported = (resume.records.map(\.input) + unreported(report, resume, context).map(\.input)).filter {
      !listedKeys.contains(BatchEntry(input: $0).key)
    }
    guard let first = onlyListed.first ?? onlyReported.first else { return }
    let count = onlyListed.count + onlyReported.count
    throw AuthError(
      .usage,
      message:
        "\(path) is not the list of the batch in \(report): \(count) account\(count == 1 ? "" : "s") in one and not"
        + " the other (\(BatchInput.shown(first))); nothing was sent.",
      hint:
        "--resume \(report) finishes the batch its report names: leave out --from, or give the --report of this list.")
  }

  func openBulkLines(_ path: String, _ context: ShellContext, stop: BatchStop?) throws -> any InputLines {
    let name = path == "-" ? "standard input" : path
    do {
      let lines = try context.openInputLines(path)
      lines.lineLimit = BatchInput.recordLimit
      (lines as? DescriptorLines)?.stop = stop
      return lines
    } catch {
      throw AuthError(.usage, message: "Cannot read \(name): \(SystemError.reason(error)).")
    }
  }
}
