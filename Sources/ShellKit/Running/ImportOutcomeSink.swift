import AuthCore
import Essentials

/// Where `user import` puts each account's outcome as soon as it is known: a line in `--report`
/// and a line in the audit log. The first write that fails is kept (the import goes on: its
/// accounts are being created either way, and the summary still lists them).
final class ImportOutcomeSink: Sendable {
  private let report: (any BatchReportSink)?
  private let guardRails: SupportGuard
  private let firstFailure = Guarded<AuthError?>(nil)
  /// What each account sent loses on the way, by its place among them (an outcome's `index`),
  /// put on its outcome; the account's key (`ImportOutcome.key`) makes sure the place is its own.
  private let losses: [(key: String?, losses: [ImportLoss])]
  /// Whether some account sent loses something (a file without factors: every one).
  let hasLosses: Bool
  /// The audit log opened once for the sink's outcomes (nil: not audited, or it could not be opened).
  private let auditWriter: (any AuditBatchWriter)?

  /// The backend every report line names (`BackendKey.canonical`): `--resume` refuses a report of
  /// another backend.
  private let backend: String

  /// `sent`: the accounts given to the importer, in its order (each outcome's `index` is its place).
  init(report: (any BatchReportSink)?, guardRails: SupportGuard, sent: [ImportCheck] = []) {
    self.report = report
    self.backend = BackendKey(guardRails.target).canonical
    self.guardRails = guardRails
    self.losses = sent.map { (ImportOutcome.key(of: $0.account), $0.losses) }
    self.hasLosses = sent.contains { !$0.losses.isEmpty }
    do {
      auditWriter = try guardRails.auditWriter()
    } catch {
      // Each outcome then tries the log on its own, and the first failure is kept.
      auditWriter = nil
    }
  }

  /// Writes what the audit writer still holds and lets the log go; call once every outcome is in.
  func close() { auditWriter?.close() }

  /// `outcome` with the losses of its account (an imported one carries them).
  func withLosses(_ outcome: ImportOutcome) -> ImportOutcome {
    guard hasLosses, outcome.losses.isEmpty, losses.indices.contains(outcome.index) else { return outcome }
    let (key, found) = losses[outcome.index]
    guard !found.isEmpty, key != nil, key == outcome.sourceId ?? outcome.email?.lowercasedKeepingLower else {
      return outcome
    }
    var changed = outcome
    changed.losses = found
    return changed
  }

  var failure: AuthError? { firstFailure.update { $0 } }

  /// `audit` false: nothing was sent for these (held back), so the audit log has nothing to say.
  func take(_ given: [ImportOutcome], audit: Bool = true) {
    guard !given.isEmpty else { return }
    let outcomes = hasLosses ? given.map(withLosses) : given
    do {
      for outcome in outcomes { try report?.write(json: outcome.reportLine(backend: backend)) }
    } catch {
      // An I/O error once accounts are being sent (exit 74), not a usage one.
      keep(
        AuthError(
          .outputNotWritten,
          message:
            "The report could not be written: \(SystemError.reason(error)); the import went on without it (the summary"
            + " counts every account, and the audit log has every outcome)."))
    }
    guard audit else { return }
    do {
      try guardRails.recordAll(
        outcomes.map { ($0.newId ?? $0.sourceId, $0.email, Self.auditError($0)) }, through: auditWriter)
    } catch let error as AuthError {
      keep(
        AuthError(
          .auditUnavailable, message: "The import ran, but not every outcome is in the audit log: \(error.message)"))
    } catch {
      keep(AuthError(.auditUnavailable))
    }
  }

  private func keep(_ error: AuthError) {
    firstFailure.update { if $0 == nil { $0 = error } }
  }

  static func auditError(_ outcome: ImportOutcome) -> AuthError? {
    switch outcome.status {
    case .imported, .wouldImport: return nil
    case .skippedExisting: return AuthError(.userAlreadyExists, message: "skipped: already there")
    case .failed:
      return AuthError(ErrorCode(rawValue: outcome.errorCode ?? "provider_error"), message: outcome.message ?? "")
    case .unknown: return AuthError(.cancelled, message: outcome.message ?? "")
    case .notStarted: return AuthError(.cancelled, message: "not started")
    case .heldBack: return AuthError(.validationFailed, message: "held back: " + (outcome.message ?? ""))
    }
  }
}
