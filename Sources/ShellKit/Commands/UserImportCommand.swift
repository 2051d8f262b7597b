import AuthCore
import Essentials
import JSONKit

struct UserImportCommand: Command {
  /// A dry run sends nothing and has nothing to stop.
  func live(_ invocation: Invocation) -> LiveOutput? { invocation[.importDryRun] ? nil : .batch }

  func standardInput(_ invocation: Invocation) -> StandardInputUse? {
    guard invocation[.importFile]?.trimmingWhitespace == "-" else { return nil }
    return .stream(
      refusedOnTerminal:
        "user import - reads an export from standard input, but standard input is a terminal: name the file, or pipe it in (authsh user import - < users.jsonl)"
    )
  }

  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
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
    let file = try AccountFile(path: path, name: name, hashConfig: hashConfig, context, stop: io.batchStop)
    var result = CommandResult(command: invocation.spec.name)
    let backend = "\(target.provider.rawValue) (profile \(target.profile))"
    // The backend as report lines name it (`--resume` refuses another one's report).
    let reportBackend = BackendKey(target).canonical
    // `--resume REPORT`: only the accounts the earlier run did not finish.
    let resume = try invocation[.bulkResume].map {
      try readImportReport($0, context, stop: io.batchStop, backend: reportBackend)
    }
    let consent = ImportConsent(
      withoutPasswords: invocation[.withoutPasswords], dropFactors: invocation[.dropFactors],
      confirmUnverified: invocation[.confirmUnverified])
    let targetKind = target.provider
    let now = context.clock.unixNow
    @Sendable func check(_ account: PortableAccount) -> ImportCheck {
      ImportCheck(account, target: targetKind, consent: consent, now: now)
    }
    func isDone(_ account: PortableAccount) -> Bool {
      guard let resume, let key = ImportOutcome.key(of: account) else { return false }
      return resume.contains(key)
    }

    // A dry run's report says what would happen to each account, as pass 1 finds it.
    let dryReport =
      try invocation[.importDryRun] ? invocation[.importReport].map { try openImportReport($0, context) } : nil
    defer { dryReport?.close() }

    // Pass 1: the whole file read and checked before anything is sent.
    var planned = ImportDryRunTally(provider: target.provider)
    var pending = (todo: 0, held: 0)
    var unhashed = 0
    // A dry run has no pass 2: it keeps nothing.
    var kept: [ImportCheck]? = invocation[.importDryRun] ? nil : []
    let keptLimit = Self.importKept(fileSize: file.regularFileSize)
    var duplicates = ImportDuplicates()
    // Where the duplicates are (their places in the file): pass 2 marks them again without the keys.
    var duplicateAt = Set<Int>()
    var place = 0
    let format = try file.read(check) { account, checked in
      var checked = checked
      defer { place += 1 }
      if duplicates.isDuplicate(account) {
        checked.markDuplicate()
        duplicateAt.insert(place)
      }
      if account.passwordNote == PortableAccountReader.missingHashConfig { unhashed += 1 }
      planned.add(checked)
      if let dryReport {
        try dryReport.write(json: ImportOutcome.planned(checked, index: place).reportLine(backend: reportBackend))
      }
      if !isDone(account) {
        if checked.willSend { pending.todo += 1 } else { pending.held += 1 }
        kept?.append(checked)
        if kept?.count ?? 0 > keptLimit { kept = nil }
      }
    }
    // The keys of a million accounts are tens of megabytes that pass 2 does not need.
    duplicates = ImportDuplicates()
    if unhashed > 0 { throw Self.missingHashConfig(unhashed, name: name) }
    guard planned.total > 0 else {
      result.output = "\(name) has no accounts; nothing was sent."
      return result
    }
    if invocation[.importDryRun] {
      result.output = ImportSummary.dryRun(planned, format: format, source: name, backend: backend)
      result.payload = ImportOutput(counts: ImportSummary.counts(planned))
      if planned.held.count > 0 {
        result.error = ImportSummary.heldBackError(
          planned.held.count, total: planned.total, losses: planned.heldLosses, dryRun: true)
      } else if planned.refused.count > 0 {
        result.error = AuthError(
          .validationFailed,
          message:
            "\(planned.refused.count) of \(planned.total) accounts would fail: nothing would be sent for them (listed above)."
        )
      }
      return result
    }
    guard pending.todo + pending.held > 0 else {
      result.output =
        "Nothing left to do: every account of \(name) has its outcome in \(invocation[.bulkResume] ?? "the report")."
      result.payload = ImportOutput(counts: ImportSummary.counts(ImportTally(), total: 0))
      return result
    }
    try confirmBatch(invocation, context, count: pending.todo, backend: backend)
    let provider = try makeAdminProvider(invocation, context, target: target)
    try guardRails.recordAttempt(email: name)
    guard let importer = provider as? any AccountImporter else {
      let refusal = AuthError(.notSupported, message: "This backend cannot import accounts.")
      try? guardRails.record(user: nil, email: name, error: refusal)
      throw refusal
    }
    // Each account's outcome goes to the report and the audit log as it is known, so a killed
    // import leaves a record of what it created.
    // Resuming appends to the report it reads, also when --report names that same file (as "the
    // same command with --resume" does): emptying it would lose the earlier run's outcomes.
    let resumed = invocation[.bulkResume]
    let report: (any BatchReportSink)? = try (invocation[.importReport] ?? resumed).map { path in
      try openImportReport(path, context, append: resumed.map { Self.sameFile(path, $0) } ?? false)
    }
    defer { report?.close() }

    // Pass 2: the file again, a chunk at a time.
    let total = pending.todo + pending.held
    let progress = ImportProgress(total: total, report: io.batchProgress)
    var tally = ImportTally()
    let jobs = invocation[.importJobs] ?? 8
    let sender = ImportSender(
      importer: importer, report: report, guardRails: guardRails, progress: progress, jobs: jobs,
      stop: io.batchStop)
    let inFlightLimit = Self.chunksInFlight(jobs: jobs, accountsPerRequest: importer.accountsPerRequest)
    var failure: AuthError?
    // A small file was kept by pass 1; a large one is read again, a chunk at a time.
    let stream = kept == nil ? try file.open() : nil
    var ended = false
    var keptIndex = 0
    // Pass 2 meets the accounts in the same order: the same places are duplicates.
    var placeAgain = 0
    func nextChunk() throws -> ArraySlice<ImportCheck> {
      if let kept {
        // A slice of what pass 1 kept: no copy of its accounts.
        defer { keptIndex = min(keptIndex + Self.importChunk, kept.count) }
        return kept[keptIndex..<min(keptIndex + Self.importChunk, kept.count)]
      }
      guard let stream else { return [] }
      var queued: [ImportCheck] = []
      while !ended, queued.count < Self.importChunk {
        let batch = try file.next(stream, count: Self.importChunk - queued.count, check)
        if batch.isEmpty { ended = true }
        for (account, checked) in batch {
          var checked = checked
          if duplicateAt.contains(placeAgain) { checked.markDuplicate() }
          placeAgain += 1
          if !isDone(account) { queued.append(checked) }
        }
      }
      return queued[...]
    }
    // The next chunk is read and checked while the ones before it are sent, and it is sent as soon
    // as it is ready when `--jobs` leaves room for it (`chunksInFlight`), so a batch backend does
    // not wait for a chunk's last call before the next chunk's first.
    try await withThrowingTaskGroup(of: (outcomes: [ImportOutcome], failure: AuthError?).self) { group in
      func collect(_ sent: (outcomes: [ImportOutcome], failure: AuthError?)) {
        for outcome in sent.outcomes { tally.add(outcome) }
        if failure == nil { failure = sent.failure }
      }
      var inFlight = 0
      var chunk = try nextChunk()
      while !chunk.isEmpty {
        let sending = chunk
        group.addTask { await sender.send(sending) }
        inFlight += 1
        chunk = try nextChunk()
        if inFlight == inFlightLimit, let sent = try await group.next() {
          collect(sent)
          inFlight -= 1
        }
      }
      while let sent = try await group.next() { collect(sent) }
    }
    result.output = ImportSummary.text(tally, total: total, format: format, source: name, backend: backend)
    if resume != nil {
      result.notes.append(
        "\(planned.total - total) accounts of \(name) were done in the earlier run and were left as they are.")
    }
    result.payload = ImportOutput(counts: ImportSummary.counts(tally, total: total))
    let failed = tally.count(.failed) + tally.count(.unknown)
    let stopped = tally.count(.notStarted) + tally.count(.unknown) > 0
    if stopped, let path = invocation[.importReport] ?? invocation[.bulkResume] {
      result.notes.append("To finish the import: the same command with --resume \(path).")
    }
    if let failure {
      result.error = failure
    } else if let unreachable = sender.unreachable.update({ $0 }) {
      // The backend could not be reached: its own error (and exit status), not "could not be imported".
      var stopped = unreachable
      stopped.message =
        "\(unreachable.message) The import stopped there: \(tally.count(.notStarted) + failed) of \(total) accounts were not sent."
      result.error = stopped
    } else if failed > 0 {
      result.error = AuthError(
        .providerError, message: "\(failed) of \(total) accounts could not be imported (listed above).")
    } else if tally.heldBack.count > 0 {
      result.error = ImportSummary.heldBackError(
        tally.heldBack.count, total: total, losses: tally.heldLosses, dryRun: false)
    }
    if Task.isCancelled || io.batchStop?.stopped == true { result.error = AuthError(.cancelled) }
    return result
  }
}

extension UserImportCommand {
  /// Accounts sent to the importer at a time: the file is read twice (checked whole, then sent a
  /// chunk at a time), so memory is a few chunks however many accounts the file has. Three of
  /// Firebase's batches of 1,000.
  static let importChunk = 3_000

  /// A file of at most this many accounts is read once: pass 1 keeps its checked accounts (under
  /// 1 KB each) for pass 2, and drops them once there are more. Chosen by memory, against the
  /// 150 MB resident a 1,000,000-account import stays within: a regular file of at most 32 MB
  /// (100,000 accounts of a typical export) keeps up to 100,000 (about 120 MB at the end); a
  /// larger file, or a stream whose size is not known, keeps up to 50,000, since pass 1 holds them
  /// until it knows the count (a 1,000,000-account file peaked at 157 MB keeping 100,000).
  static func importKept(fileSize: Int?) -> Int {
    fileSize.map { $0 <= importKeptFileSize } == true ? 100_000 : 50_000
  }

  static let importKeptFileSize = 32 << 20

  /// Chunks being sent at once, at most: two when their requests together stay within `--jobs`
  /// (Firebase's batches: a chunk is three calls), else one (a request per account: the chunk
  /// alone fills `--jobs`).
  static let importChunksInFlight = 2

  static func chunksInFlight(jobs: Int, accountsPerRequest: Int) -> Int {
    let requestsPerChunk = (importChunk + max(accountsPerRequest, 1) - 1) / max(accountsPerRequest, 1)
    return max(1, min(importChunksInFlight, jobs / requestsPerChunk))
  }

  /// The keys of the accounts an import `--report` says are done.
  func openImportReport(_ path: String, _ context: ShellContext, append: Bool = false) throws -> any BatchReportSink {
    do {
      return try context.openBatchReport(path, append)
    } catch let error as AuthError {
      // Already "Cannot write the report PATH: why."
      throw error
    } catch {
      throw AuthError(.usage, message: "Cannot write the report \(path): \(SystemError.reason(error)).")
    }
  }

  func readImportReport(
    _ path: String, _ context: ShellContext, stop: BatchStop?, backend: String
  ) throws -> Set<String> {
    let name = path == "-" ? "standard input" : path
    var lines = PhysicalLines(lines: try openBulkLines(path, context, stop: stop), name: name)
    var status: [String: Bool] = [:]
    // A line that is no report line is refused, unless it is the last one: a run killed or out of
    // disk space mid-write leaves a torn last line, and its account is simply not done.
    var unreadable: Int?
    while let (line, number) = try lines.nextContent() {
      if let unreadable {
        throw AuthError(
          .usage, message: "\(name) is not a report of user import: line \(unreadable) has no id or email and status.")
      }
      guard let json = try? JSON.parse(line), let (key, done, into) = ImportOutcome.reported(json) else {
        unreadable = number
        continue
      }
      // A line of another backend matters only when it says the account is done there: one that
      // was never sent (a backend that could not be reached, then fixed) is no outcome here.
      if let into, into != backend {
        guard done else { continue }
        throw AuthError(
          .usage,
          message:
            "\(name) reports an import into \(into) (line \(number)), not into \(backend): --resume finishes an import on the backend it was made for."
        )
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
      throw AuthError.cancelledBeforeSending()
    }
    guard answer.trimmingWhitespace == String(count) else {
      throw AuthError.cancelledBeforeSending(
        "Not confirmed ('\(answer.trimmingWhitespace)' is not \(count)); nothing was sent.")
    }
  }
}
