import AuthCore
import Essentials

/// What a change command does to each account of a batch (`--from FILE`).
struct BulkAction: Sendable {
  /// "confirm": for "would confirm" in a dry run.
  var verb: String
  /// "Confirmed": for the line of a changed account.
  var done: String
  var requires: AdminChange?
  /// Whether a change that timed out or met a 5xx may be sent again. True for the set-operations
  /// (confirm, disable, enable, update, sign-out, factor reset, delete): sending one twice leaves
  /// the account as sending it once does. False where a second send is a second effect (resend:
  /// another mail); those are retried after a rate limit only, which refused the first.
  var retryTransient = true
  /// The change needs the whole account (factors, identities), not just its state.
  var wholeAccount = false
  /// Why nothing needs to be sent to `user` (it is already as asked); nil when a change is needed.
  var already: @Sendable (AdminUser) -> String? = { _ in nil }
  /// Makes the change; the Int is the attempt (1 for the first).
  var apply: @Sendable (any AdminProvider, AdminUser, Int) async throws -> Void
}

/// Bulk changes: every `user` change command with `--from FILE` runs its change on each account
/// listed, `--jobs` at a time, through the same rails as one account (readonly refusal before
/// anything is sent, one confirmation for the batch, a started and an outcome audit line per
/// account), with a shared back-off for rate limits.
extension CommandRunner {
  /// `--from FILE` given to a change command that takes it.
  func isBulk(_ invocation: Invocation) throws -> Bool {
    guard invocation.spec.takesBulkFrom else { return false }
    if invocation[.bulkFrom] != nil { return true }
    for flag in ["--jobs", "--dry-run", "--report", "--only-failed"] where invocation.flags[flag] != nil {
      throw AuthError(.usage, message: "\(flag) works with --from FILE (many accounts).")
    }
    return false
  }

  func bulkChange(_ invocation: Invocation, _ context: ShellContext, _ action: BulkAction) async throws -> CommandResult {
    let target = try target(invocation, context)
    let guardRails = SupportGuard(invocation: invocation, context: context, target: target)
    // Before the input is read and before anything is sent.
    try guardRails.checkWritable()
    let dryRun = invocation[.dryRun]
    let entries = try bulkEntries(invocation, context)
    let provider = try makeAdminProvider(invocation, context, target: target)
    guard !entries.isEmpty else {
      var result = CommandResult(command: invocation.spec.name)
      result.batch = BatchTally().json(dryRun: dryRun, pauses: 0, pausedSeconds: 0)
      result.notes = ["No failed accounts in \(invocation[.bulkFrom] ?? "the report"): nothing to do."]
      return result
    }
    if !dryRun {
      try guardRails.confirmBatch(count: entries.count)
      try guardRails.checkAuditWritable()
    }
    let report = try invocation[.bulkReport].map { try context.openBatchReport($0) }
    defer { report?.close() }

    let policy = context.batchPolicy
    let backOff = BatchBackOff(clock: context.batchClock, policy: policy)
    let retrier = BatchRetrier(backOff: backOff, clock: context.batchClock, policy: policy)
    let jobs = invocation[.bulkJobs] ?? 4
    var tally = BatchTally()
    var reportError: AuthError?
    let progress = context.batchProgress
    await BatchRunner.run(entries, jobs: jobs, work: { entry in
      await Self.changeOne(entry, provider: provider, action: action, retrier: retrier, guardRails: guardRails, dryRun: dryRun)
    }) { record, error in
      tally.add(record, error: error)
      do {
        try report?.write(record)
      } catch {
        if reportError == nil { reportError = AuthError(.usage, message: "Cannot write the report: \(Self.reason(error)).") }
      }
      progress?(BatchProgress(record: record, done: tally.total, total: entries.count, failures: tally.problems, dryRun: dryRun))
    }

    var result = CommandResult(command: invocation.spec.name)
    let pauses = await backOff.pauses
    let paused = await backOff.pausedSeconds
    result.batch = tally.json(dryRun: dryRun, pauses: pauses, pausedSeconds: paused)
    result.notes = tally.summaryLines(dryRun: dryRun, pauses: pauses, pausedSeconds: paused)
    result.error = reportError ?? Self.batchFailure(tally)
    if Task.isCancelled { result.error = AuthError(.cancelled) }
    return result
  }

  /// Nil when every account was changed or already as asked; else the first failure (an outage
  /// stays an outage: exit 3), or `user_not_found` when only accounts were missing (exit 1).
  static func batchFailure(_ tally: BatchTally) -> AuthError? {
    guard tally.problems > 0 else { return nil }
    if var failure = tally.firstFailure {
      failure.message = "\(tally[.failed]) of \(tally.total) accounts failed; the first: \(failure.message)"
      return failure
    }
    if tally[.failed] > 0 {
      return AuthError(.validationFailed, message: "\(tally[.failed]) of \(tally.total) lines are not an address or id.")
    }
    return AuthError(.userNotFound, message: "\(tally[.notFound]) of \(tally.total) accounts not found.")
  }

  /// The EMAIL argument (if any) then the accounts of `--from`, read through `LookupInput`.
  func bulkEntries(_ invocation: Invocation, _ context: ShellContext) throws -> [BatchEntry] {
    let path = invocation[.bulkFrom] ?? "-"
    let name = path == "-" ? "standard input" : path
    let arguments = [invocation.argument("EMAIL")].compactMap { $0?.trimmingWhitespace }.filter { !$0.isEmpty }
    let lines: any InputLines
    do {
      lines = try context.openInputLines(path)
    } catch {
      throw AuthError(.usage, message: "Cannot read \(name): \(Self.reason(error)).")
    }
    let input = LookupInput(arguments: arguments, lines: lines, name: name)
    let entries = try BatchInput.read(input, onlyFailed: invocation[.onlyFailed])
    // A report with nothing failed is nothing to do (the caller says so); an empty list is a mistake.
    guard !entries.isEmpty || invocation[.onlyFailed] else {
      throw AuthError(.usage, message: "\(path == "-" ? "Standard input" : path) has no addresses (one per line).")
    }
    return entries
  }

  /// One account: looked up, then changed unless it is already as asked; its audit lines around
  /// it (none in a dry run: nothing is sent).
  static func changeOne(
    _ entry: BatchEntry, provider: any AdminProvider, action: BulkAction, retrier: BatchRetrier, guardRails: SupportGuard,
    dryRun: Bool
  ) async -> (BatchRecord, AuthError?) {
    if let problem = entry.problem {
      let error = AuthError(.validationFailed, message: problem)
      return (BatchRecord(input: entry.input, outcome: .failed, code: error.code.rawValue, message: problem), error)
    }
    let input = entry.input
    if !dryRun {
      do {
        try guardRails.recordAttempt(email: input)
      } catch let error as AuthError {
        return (BatchRecord(input: input, outcome: .failed, code: error.code.rawValue, message: error.message), error)
      } catch {
        let failure = AuthError(.auditUnavailable)
        return (BatchRecord(input: input, outcome: .failed, code: failure.code.rawValue, message: failure.message), failure)
      }
    }
    var user: AdminUser?
    var (record, error) = await decide(input, provider: provider, action: action, retrier: retrier, dryRun: dryRun, user: &user)
    if !dryRun {
      do {
        try guardRails.record(user: user, email: input, error: error)
      } catch let failure as AuthError {
        if error == nil {
          error = AuthError(.auditUnavailable, message: "Applied, but the outcome could not be recorded in the audit log: \(failure.message)")
          record.outcome = .failed
          record.code = error?.code.rawValue
          record.message = error?.message ?? ""
        }
      } catch {}
    }
    return (record, error)
  }

  private static func decide(
    _ input: String, provider: any AdminProvider, action: BulkAction, retrier: BatchRetrier, dryRun: Bool, user: inout AdminUser?
  ) async -> (BatchRecord, AuthError?) {
    do {
      let reference = UserReference(input)
      let lookup: @Sendable (Int) async throws -> AdminUser? = { _ in
        action.wholeAccount ? try await provider.user(reference) : try await provider.accountForChange(reference)
      }
      guard let found = try await retrier.run(lookup), found.deletedAt == nil else {
        let error = AuthError(.userNotFound, message: "No account for \(input).")
        return (BatchRecord(input: input, outcome: .notFound, code: error.code.rawValue, message: error.message), error)
      }
      user = found
      let who = found.email.isEmpty ? found.id : found.email
      func record(_ outcome: BatchOutcome, _ message: String, code: String? = nil) -> BatchRecord {
        BatchRecord(input: input, email: found.email.isEmpty ? nil : found.email, id: found.id, outcome: outcome, code: code, message: message)
      }
      if let requires = action.requires, let refusal = provider.unsupported(requires, for: found) {
        return (record(.failed, refusal.message, code: refusal.code.rawValue), refusal)
      }
      if let already = action.already(found) { return (record(.unchanged, already), nil) }
      if dryRun { return (record(.wouldChange, "Would \(action.verb) \(who).") , nil) }
      try await retrier.run(retryTransient: action.retryTransient) { attempt in try await action.apply(provider, found, attempt) }
      return (record(.changed, "\(action.done) \(who)."), nil)
    } catch {
      let failure = (error as? AuthError) ?? AuthError(error is CancellationError ? .cancelled : .providerError)
      let outcome: BatchOutcome = failure.code == .userNotFound ? .notFound : .failed
      return (
        BatchRecord(
          input: input, email: user.flatMap { $0.email.isEmpty ? nil : $0.email }, id: user?.id, outcome: outcome,
          code: failure.code.rawValue, message: failure.message),
        failure
      )
    }
  }
}

extension CommandSpec {
  /// A change command's `--from FILE` (not `user show`'s, which has the same name).
  public var takesBulkFrom: Bool { flags.contains(FlagKey.bulkFrom.spec) }
}
