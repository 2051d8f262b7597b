import AuthCore
import Essentials

/// Bulk changes: every `user` change command with `--from FILE` runs its change on each account
/// listed, `--jobs` at a time, through the same rails as one account (readonly refusal before
/// anything is sent, one confirmation for the batch, a started and an outcome audit line per
/// account), with a shared back-off for rate limits.
extension Command {
  /// `--from FILE` or `--resume REPORT` given to a change command that takes them.
  func isBulk(_ invocation: Invocation) throws -> Bool {
    guard invocation.spec.takesBulkFrom else { return false }
    // `--from` (with its `--only-failed`) may stay beside `--resume`: the batch's own command line
    // with `--resume` added, as its hint says. The report decides what is done; `bulkPlan` checks
    // that the list is the report's.
    if invocation[.bulkResume] != nil, invocation[.bulkFrom] == nil, invocation[.onlyFailed] {
      throw AuthError(.usage, message: "--resume already retries the failures that may pass: leave out --only-failed.")
    }
    if invocation[.bulkFrom] != nil || invocation[.bulkResume] != nil { return true }
    for flag in ["--jobs", "--dry-run", "--report", "--only-failed"] where invocation.flags[flag] != nil {
      throw AuthError(.usage, message: "\(flag) works with --from FILE (many accounts).")
    }
    return false
  }

  func bulkChange(
    _ invocation: Invocation, _ context: ShellContext, _ io: CommandIO, _ action: BulkAction
  ) async throws -> CommandResult {
    let target = try target(invocation, context)
    let guardRails = SupportGuard(invocation: invocation, context: context, target: target)
    // Before the input is read and before anything is sent.
    try guardRails.checkWritable()
    let dryRun = invocation[.dryRun]
    let plan = try bulkPlan(invocation, context, stop: io.batchStop, dryRun: dryRun)
    let entries = plan.list.entries
    let provider = try makeAdminProvider(invocation, context, target: target)
    var tally = BatchTally()
    tally.duplicates = plan.list.duplicates
    for record in plan.carried { tally.add(record, error: nil) }
    var result = CommandResult(command: invocation.spec.name)
    guard !entries.isEmpty else {
      result.payload = BatchOutput(summary: tally.json(dryRun: dryRun, pauses: 0, pausedSeconds: 0))
      result.notes = [plan.nothingToDo]
      return result
    }
    // A change the backend cannot make for anyone: every account is not_supported, nothing is
    // sent (not even a look-up), in a dry run too.
    if let requires = action.requires,
      let refusal = provider.unsupported(requires, for: AdminUser(id: "", email: "EMAIL", confirmed: false))
    {
      let report = try openReport(invocation, context, plan: plan)
      defer { report?.close() }
      var reportError: AuthError?
      for entry in entries {
        let record =
          entry.problemRecord
          ?? BatchRecord(
            input: entry.input, outcome: .notSupported, code: refusal.code.rawValue, message: refusal.message)
        tally.add(record, error: nil)
        Self.write(record, to: report, failure: &reportError)
      }
      result.payload = BatchOutput(summary: tally.json(dryRun: dryRun, pauses: 0, pausedSeconds: 0))
      result.notes = tally.summaryLines(dryRun: dryRun, pauses: 0, pausedSeconds: 0)
      var error = refusal
      let nothingSent = "Nothing was sent for the \(entries.count) account\(entries.count == 1 ? "" : "s") listed."
      error.message = "\(refusal.message) \(nothingSent)"
      result.error = reportError.map { Self.reportNotWritten($0, invocation, done: nothingSent) } ?? error
      return result
    }
    if !dryRun {
      try guardRails.confirmBatch(count: entries.count)
      try guardRails.checkAuditWritable()
    }
    let report = try openReport(invocation, context, plan: plan, listFirst: !dryRun)
    defer { report?.close() }

    let stop = io.batchStop
    let policy = context.batchPolicy
    let backOff = BatchBackOff(clock: context.batchClock, policy: policy)
    let retrier = BatchRetrier(backOff: backOff, clock: context.batchClock, policy: policy, stop: stop)
    let jobs = invocation[.bulkJobs] ?? 4
    var reportError: AuthError?
    let progress = io.batchProgress
    let total = tally.total + entries.count
    await BatchRunner.run(
      entries, jobs: jobs, stop: stop,
      work: { entry in
        await Self.changeOne(
          entry, provider: provider, action: action, retrier: retrier, guardRails: guardRails, dryRun: dryRun,
          stop: stop)
      },
      notStarted: { entry in
        entry.problemRecord
          ?? BatchRecord(input: entry.input, outcome: .notStarted, message: "Not started: the batch was stopped first.")
      }
    ) { record, error in
      tally.add(record, error: error)
      Self.write(record, to: report, failure: &reportError)
      progress?(
        BatchProgress(
          record: record, done: tally.total, total: total, failures: tally.problems, dryRun: dryRun,
          carried: plan.carried.count))
    }

    let pauses = await backOff.pauses
    let paused = await backOff.pausedSeconds
    result.payload = BatchOutput(summary: tally.json(dryRun: dryRun, pauses: pauses, pausedSeconds: paused))
    result.notes = tally.summaryLines(dryRun: dryRun, pauses: pauses, pausedSeconds: paused)
    if tally[.unknown] + tally[.notStarted] > 0 {
      if let report = invocation[.bulkReport] ?? invocation[.bulkResume] {
        let unknown = tally[.unknown] > 0 ? " (it looks the unknown ones up first)" : ""
        result.notes.append("To finish the batch: the same command with --resume \(report)\(unknown).")
      } else {
        result.notes.append(
          "Without --report there is no list to --resume from: give --report FILE to finish an interrupted batch later."
        )
      }
    }
    // This run's own work decides the exit status; what an earlier run did is only counted.
    var own = tally
    for record in plan.carried { own.remove(record) }
    let done = "The batch went on without it: " + (result.notes.first ?? "")
    result.error = reportError.map { Self.reportNotWritten($0, invocation, done: done) } ?? Self.batchFailure(own)
    if Task.isCancelled || stop?.stopped == true { result.error = AuthError(.cancelled) }
    return result
  }

  /// One account: looked up, then changed unless it is already as asked; its audit lines around
  /// it (none in a dry run: nothing is sent).
  static func changeOne(
    _ entry: BatchEntry, provider: any AdminProvider, action: BulkAction, retrier: BatchRetrier,
    guardRails: SupportGuard,
    dryRun: Bool, stop: BatchStop? = nil
  ) async -> (BatchRecord, AuthError?) {
    if let problem = entry.problem, let record = entry.problemRecord {
      return (record, AuthError(.validationFailed, message: problem))
    }
    let input = entry.input
    if !dryRun {
      do {
        try guardRails.recordAttempt(email: input)
      } catch let error as AuthError {
        return (BatchRecord(input: input, outcome: .failed, code: error.code.rawValue, message: error.message), error)
      } catch {
        let failure = AuthError(.auditUnavailable)
        return (
          BatchRecord(input: input, outcome: .failed, code: failure.code.rawValue, message: failure.message), failure
        )
      }
    }
    var user: AdminUser?
    var (record, error) = await decide(
      entry, provider: provider, action: action, retrier: retrier, dryRun: dryRun, stop: stop, user: &user)
    if !dryRun {
      do {
        try guardRails.record(user: user, email: input, error: error)
      } catch let failure as AuthError {
        if error == nil {
          error = AuthError(
            .auditUnavailable,
            message: "Applied, but the outcome could not be recorded in the audit log: \(failure.message)")
          record.outcome = .failed
          record.code = error?.code.rawValue
          record.message = error?.message ?? ""
        }
      } catch {}
    }
    return (record, error)
  }

  static func decide(
    _ entry: BatchEntry, provider: any AdminProvider, action: BulkAction, retrier: BatchRetrier, dryRun: Bool,
    stop: BatchStop?,
    user: inout AdminUser?
  ) async -> (BatchRecord, AuthError?) {
    let input = entry.input
    // Whether the change itself went out (then no answer means it may have been applied).
    var sent = false
    do {
      let reference = UserReference(input)
      let lookup: @Sendable (Int) async throws -> AdminUser? = { _ in
        action.wholeAccount ? try await provider.user(reference) : try await provider.accountForChange(reference)
      }
      guard let found = try await retrier.run(lookup), found.deletedAt == nil else {
        if entry.previous == .unknown, action.goneMeansDone {
          // `--resume`: the earlier run's delete got no answer, and it did go through.
          return (
            BatchRecord(
              input: input, outcome: .unchanged,
              message: "No account for \(input) any more: the earlier run's change went through."), nil
          )
        }
        let error = AuthError(.userNotFound, message: "No account for \(input).")
        return (BatchRecord(input: input, outcome: .notFound, code: error.code.rawValue, message: error.message), error)
      }
      user = found
      let who = found.email.isEmpty ? found.id : found.email
      func record(_ outcome: BatchOutcome, _ message: String, code: String? = nil) -> BatchRecord {
        BatchRecord(
          input: input, email: found.email.isEmpty ? nil : found.email, id: found.id, outcome: outcome, code: code,
          message: message)
      }
      if let requires = action.requires, let refusal = provider.unsupported(requires, for: found) {
        return (record(.notSupported, refusal.message, code: refusal.code.rawValue), refusal)
      }
      if let already = action.already(found) { return (record(.unchanged, already), nil) }
      if dryRun { return (record(.wouldChange, "Would \(action.verb) \(who)."), nil) }
      if stop?.stopped == true || Task.isCancelled {
        return (
          record(.notStarted, "Not started: the batch was stopped before the change was sent."), AuthError(.cancelled)
        )
      }
      sent = true
      try await retrier.run(retryTransient: action.retryTransient) { attempt in
        _ = try await action.apply(provider, found, attempt)
      }
      return (record(.changed, "\(action.done) \(who)."), nil)
    } catch {
      let failure: AuthError
      var outcome: BatchOutcome
      switch error {
      case let stopped as BatchStopped:
        // A retry the stopped batch did not make: after a rate limit nothing was applied.
        failure = stopped.after ?? AuthError(.cancelled)
        outcome = stopped.outcome(sent: sent)
      case let known as AuthError:
        failure = known
        outcome = known.code == .userNotFound ? .notFound : .failed
        if sent, known.isNoAnswer { outcome = .unknown }
      default:
        failure = AuthError(error is CancellationError ? .cancelled : .providerError)
        outcome = error is CancellationError ? (sent ? .unknown : .notStarted) : .failed
      }
      var message = failure.message
      if outcome == .unknown {
        message = "Sent, but no answer came back (\(failure.message)): the change may have been applied."
      }
      if outcome == .notStarted { message = "Not started: the batch was stopped before the change was sent." }
      return (
        BatchRecord(
          input: input, email: user.flatMap { $0.email.isEmpty ? nil : $0.email }, id: user?.id, outcome: outcome,
          code: failure.code.rawValue, message: message),
        failure
      )
    }
  }
}
