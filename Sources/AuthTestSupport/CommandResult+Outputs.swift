import AuthCore
import JSONKit

/// Tests read a result's typed output by what they check (`result.batch?["total"]`): each reader
/// is the output of one type, nil when the command returned another.
extension CommandResult {
  package var batch: JSON? { payload(as: BatchOutput.self)?.summary }
  package var diagnosis: Diagnosis? { payload(as: DiagnosisOutput.self)?.diagnosis }
  package var audit: [AuditEntry]? { payload(as: AuditOutput.self)?.entries }
  package var userPage: UserPage? { payload(as: UserPageOutput.self)?.page }
  package var link: AdminLink? { payload(as: LinkOutput.self)?.link }
  package var history: [AccountEvent]? { payload(as: HistoryOutput.self)?.history }
  package var factors: [AuthFactor]? { payload(as: FactorsOutput.self)?.factors }
  package var secrets: [String]? { payload(as: SecretsOutput.self)?.names }
  package var importCounts: JSON? { payload(as: ImportOutput.self)?.counts }
  package var streamedLookups: Int { payload(as: AccountsOutput.self)?.streamed ?? 0 }
  package var status: StatusInfo? { payload(as: StatusOutput.self)?.status }
  package var inbox: InboxMessage? { payload(as: InboxOutput.self)?.message }
  package var user: AuthUser? {
    payload(as: SessionOutput.self)?.user ?? payload(as: FactorsOutput.self)?.user
  }
}
