import AuthCore
import Essentials
import JSONKit

/// `user import FILE|-`: accounts from an export created on the target backend with their password
/// hashes (`AccountImporter`). A change: a readonly profile refuses it; one confirmation for the
/// whole file on a terminal ("type 500 to confirm"), `--yes` otherwise; an audit line per account
/// (the log answers "what happened to ada@…" whichever way she was changed). Never prints a hash.
extension CommandRunner {
  func importUsers(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    let target = try target(invocation, context)
    let guardRails = SupportGuard(invocation: invocation, context: context, target: target)
    let path = (invocation[.importFile] ?? "").trimmingWhitespace
    guard !path.isEmpty else {
      throw AuthError(.usage, message: "Which file? `user import FILE` (- for standard input).")
    }
    let name = path == "-" ? "standard input" : path
    // A dry run sends nothing, so a readonly profile may make one.
    if !invocation[.importDryRun] { try guardRails.checkWritable() }
    let hashConfig = try invocation[.importHashConfig].map { try readHashConfig($0) }
    let (format, accounts) = try readAccountFile(path, name: name, hashConfig: hashConfig, context)
    var result = CommandResult(command: invocation.spec.name)
    let backend = "\(target.provider.rawValue) (profile \(target.profile))"
    guard !accounts.isEmpty else {
      result.output = "\(name) has no accounts; nothing was sent."
      return result
    }
    let checks = checkAccounts(accounts, invocation, context, target: target)
    if invocation[.importDryRun] {
      result.output = ImportSummary.dryRun(
        checks, format: format, source: name, backend: backend, provider: target.provider,
        now: context.clock.unixNow)
      return result
    }
    // `--resume REPORT`: only the accounts the earlier run did not finish.
    let resume = try invocation[.bulkResume].map { try readImportReport($0, context) }
    let pending =
      resume.map { done in checks.filter { ImportOutcome.key(of: $0.account).map { !done.contains($0) } ?? true } }
      ?? checks
    let todo = pending.filter { $0.heldBack == nil }.map(\.account)
    let held = pending.enumerated().filter { $0.element.heldBack != nil }.map { offset, check in
      var outcome = ImportOutcome(index: offset, account: check.account, status: .heldBack)
      outcome.message = check.heldBack
      outcome.losses = check.losses
      return outcome
    }
    let lossesOf = Dictionary(
      pending.compactMap { check in ImportOutcome.key(of: check.account).map { ($0, check.losses) } }
    ) { a, _ in a }
    guard !todo.isEmpty || !held.isEmpty else {
      result.output =
        "Nothing left to do: every account of \(name) has its outcome in \(invocation[.bulkResume] ?? "the report")."
      result.importCounts = ImportSummary.counts([], total: 0)
      return result
    }
    try confirmBatch(invocation, context, count: todo.count, backend: backend)
    let provider = try makeAdminProvider(invocation, context, target: target)
    try guardRails.recordAttempt(email: name)
    guard let importer = provider as? any AccountImporter else {
      let refusal = AuthError(.notSupported, message: "This backend cannot import accounts.")
      try? guardRails.record(user: nil, email: name, error: refusal)
      throw refusal
    }
    // Each account's outcome goes to the report and the audit log as it is known, so a killed
    // import leaves a record of what it created.
    let report: (any BatchReportSink)? = try (invocation[.importReport] ?? invocation[.bulkResume]).map { path in
      do {
        return try context.openBatchReport(path, invocation[.importReport] == nil)
      } catch {
        throw AuthError(.usage, message: "Cannot write the report \(path): \(Self.reason(error)).")
      }
    }
    defer { report?.close() }
    let sink = ImportOutcomeSink(report: report, guardRails: guardRails, losses: lossesOf)
    sink.take(held, audit: false)
    let sent =
      todo.isEmpty
      ? []
      : await importer.importAccounts(todo, jobs: invocation[.importJobs] ?? 8, stop: context.batchStop) {
        sink.take($0)
      }
    let outcomes = sent.map(sink.withLosses) + held
    let total = todo.count + held.count
    result.output = ImportSummary.text(outcomes, total: total, format: format, source: name, backend: backend)
    if let resume {
      result.notes.append(
        "\(accounts.count - pending.count) accounts of \(name) were done in the earlier run (\(resume.count) in the report) and were left as they are."
      )
    }
    result.importCounts = ImportSummary.counts(outcomes, total: total)
    let failed = outcomes.filter { $0.status == .failed || $0.status == .unknown }.count
    let stopped = outcomes.contains { $0.status == .notStarted || $0.status == .unknown }
    if stopped, let path = invocation[.importReport] ?? invocation[.bulkResume] {
      result.notes.append("To finish the import: the same command with --resume \(path).")
    }
    if let failure = sink.failure {
      result.error = failure
    } else if failed > 0 {
      result.error = AuthError(
        .providerError, message: "\(failed) of \(total) accounts could not be imported (listed above).")
    } else if !held.isEmpty {
      let flags = Set(held.flatMap(\.losses).filter(\.weakens).compactMap(\.flag)).sorted().joined(separator: ", ")
      result.error = AuthError(
        .validationFailed,
        message:
          "\(held.count) of \(total) accounts were held back: they would arrive weaker than they left (listed above).",
        hint: "Fix the file (--db exports the hashes and factors), or accept the loss by name: \(flags).")
    }
    if Task.isCancelled || context.batchStop?.stopped == true { result.error = AuthError(.cancelled) }
    return result
  }

  /// The keys of the accounts an import `--report` says are done.
  func readImportReport(_ path: String, _ context: ShellContext) throws -> Set<String> {
    let name = path == "-" ? "standard input" : path
    var lines = PhysicalLines(lines: try openBulkLines(path, context), name: name)
    var status: [String: Bool] = [:]
    while let (line, number) = try lines.nextContent() {
      guard let json = try? JSON.parse(line), let (key, done) = ImportOutcome.reported(json) else {
        throw AuthError(
          .usage, message: "\(name) is not a report of user import: line \(number) has no id or email and status.")
      }
      // The last line about an account is its outcome (a resumed run appends).
      status[key] = done
    }
    return Set(status.filter(\.value).keys)
  }

  /// The batch's one confirmation: on a terminal "type N to confirm", otherwise `--yes`.
  func confirmBatch(_ invocation: Invocation, _ context: ShellContext, count: Int, backend: String) throws {
    guard !invocation[.yes], !context.confirmedByScript else { return }
    guard let prompter = context.linePrompter else {
      throw AuthError(
        .usage,
        message:
          "'user import' creates \(count) accounts on \(backend) and needs confirmation: add --yes (there is no terminal to ask)."
      )
    }
    guard let answer = prompter.readLine(prompt: "Import \(count) accounts into \(backend). Type \(count) to confirm: ")
    else {
      throw AuthError(.cancelled)
    }
    guard answer.trimmingWhitespace == String(count) else {
      throw AuthError(
        .cancelled, message: "Not confirmed ('\(answer.trimmingWhitespace)' is not \(count)); nothing was sent.")
    }
  }

  func readHashConfig(_ path: String) throws -> FirebaseHashConfig {
    let text: String
    do {
      text = try ShellContext.readFile(
        path, limit: ShellContext.InputCaps.parameters.limit, lineLimit: ShellContext.InputCaps.parameters.line)
    } catch {
      throw AuthError(.usage, message: "Cannot read the hash config \(path): \(Self.reason(error)).")
    }
    do {
      return try FirebaseHashConfig(json: try JSON.parse(text))
    } catch let error as PortableAccountError {
      throw AuthError(.usage, message: "The hash config \(path) cannot be used: \(error.message).")
    } catch {
      throw AuthError(.usage, message: "The hash config \(path) is not JSON.")
    }
  }
}
