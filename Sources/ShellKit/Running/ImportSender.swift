import AuthCore

/// Pass 2 of `user import`, one chunk at a time: the held-back accounts get their outcome, the rest
/// go to the importer, and every outcome reaches the report, the audit log and the progress line as
/// it is known. A chunk is a parameter, so the next chunk can be read and checked while one is sent.
struct ImportSender: Sendable {
  let importer: any AccountImporter
  let report: (any BatchReportSink)?
  let guardRails: SupportGuard
  let progress: ImportProgress
  let jobs: Int
  let stop: BatchStop?
  /// Set by the first chunk with a request that never reached the backend (refused, no route): the
  /// chunks after it are not sent, and each of their accounts is `not_started` with the reason.
  let unreachable = Guarded<AuthError?>(nil)
  /// Set when the audit log could not take a chunk's `started` lines: that chunk and the ones after
  /// it are not sent (the log fails closed: nothing goes out without its line).
  let auditFailure = Guarded<AuthError?>(nil)

  /// The final outcome of every account of `chunk`, and the first report or audit write that failed.
  func send(_ chunk: ArraySlice<ImportCheck>) async -> (outcomes: [ImportOutcome], failure: AuthError?) {
    // Held back, or refused (a duplicate, one the target cannot make): nothing is sent for them.
    let held = chunk.filter { !$0.willSend }.map(ImportOutcome.notSent)
    let todo = chunk.filter(\.willSend)
    let sink = ImportOutcomeSink(report: report, guardRails: guardRails, sent: todo)
    defer { sink.close() }
    sink.take(held, audit: false)
    progress.add(held)
    let sent: [ImportOutcome]
    if todo.isEmpty {
      sent = []
    } else if Task.isCancelled || stop?.stopped == true || unreachable.update({ $0 }) != nil
      || auditFailure.update({ $0 }) != nil || !auditStarted(todo)
    {
      // Stopped in an earlier chunk, or the audit log refused this one's lines: the rest are never
      // sent, and each still has its outcome.
      let reason = unreachable.update { $0 } ?? auditFailure.update { $0 }
      sent = todo.map {
        ImportOutcome.interrupted(
          ImportOutcome(index: 0, account: $0.account, status: .imported), by: reason, sent: false)
      }
      sink.take(sent)
      progress.add(sent)
    } else {
      sent = await importer.importAccounts(todo.map(\.account), jobs: jobs, stop: stop) { outcomes in
        sink.take(outcomes)
        progress.add(outcomes)
      }
      unreachable.keepUnreachable(sent)
    }
    return ((sink.hasLosses ? sent.map(sink.withLosses) : sent) + held, auditFailure.update { $0 } ?? sink.failure)
  }

  /// Writes the `started` audit line of every account of `todo`; false (and the failure kept) when
  /// the log cannot take them.
  private func auditStarted(_ todo: [ImportCheck]) -> Bool {
    do {
      try guardRails.recordStarted(todo.map { ($0.account.id, $0.account.email) })
      return true
    } catch {
      var failure = (error as? AuthError) ?? AuthError(.auditUnavailable)
      failure.neverSent = true
      auditFailure.update { if $0 == nil { $0 = failure } }
      return false
    }
  }
}
