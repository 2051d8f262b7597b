import Essentials
import JSONKit

/// What `user import` keeps of its outcomes for the summary, whatever the number of accounts: the
/// counts, and the first `ImportSummary.listed` accounts of each list (the rest are in `--report`).
/// A million-account import keeps a few kilobytes here, not a million outcomes.
package struct ImportTally: Sendable, Equatable {
  /// One list of the summary: its first accounts and how many there were.
  package struct Sample: Sendable, Equatable {
    package private(set) var first: [ImportOutcome] = []
    package private(set) var count = 0
    mutating func add(_ outcome: ImportOutcome) {
      count += 1
      if first.count < ImportSummary.listed { first.append(outcome) }
    }
  }

  package private(set) var statuses: [ImportOutcome.Status: Int] = [:]
  package private(set) var failedByCode: [String: Int] = [:]
  /// Of the imported accounts, what they lost on the way.
  package private(set) var losses: [ImportLoss: Int] = [:]
  package private(set) var renamed = Sample()
  package private(set) var withoutPassword = Sample()
  package private(set) var skipped = Sample()
  package private(set) var failed = Sample()
  package private(set) var heldBack = Sample()
  package private(set) var unknown = Sample()
  /// What the held-back accounts would have lost (the flags that accept it).
  package private(set) var heldLosses: Set<ImportLoss> = []

  package init() {}

  package init(_ outcomes: [ImportOutcome]) {
    for outcome in outcomes { add(outcome) }
  }

  package func count(_ status: ImportOutcome.Status) -> Int { statuses[status] ?? 0 }

  package mutating func add(_ outcome: ImportOutcome) {
    statuses[outcome.status, default: 0] += 1
    switch outcome.status {
    case .imported:
      if outcome.withoutPassword != nil { withoutPassword.add(outcome) }
      if outcome.newId != nil && outcome.sourceId != nil { renamed.add(outcome) }
      for loss in outcome.losses { losses[loss, default: 0] += 1 }
    case .skippedExisting: skipped.add(outcome)
    case .failed:
      failedByCode[outcome.errorCode ?? "unknown", default: 0] += 1
      failed.add(outcome)
    case .heldBack:
      heldBack.add(outcome)
      heldLosses.formUnion(outcome.losses)
    case .unknown: unknown.add(outcome)
    case .notStarted, .wouldImport: break
    }
  }

  /// `--json`'s `import.losses`.
  var lossCounts: JSONObject {
    JSONObject(losses.sorted { $0.key < $1.key }.map { ($0.key.rawValue, JSON.int($0.value)) })
  }
}

/// What a `--dry-run` keeps of the checks: the counts and the first accounts of each list.
package struct ImportDryRunTally: Sendable {
  /// One list of the dry run: its first accounts (who, and why) and how many there were.
  package struct Listed: Sendable {
    package private(set) var first: [(who: String, why: String)] = []
    package private(set) var count = 0
    mutating func add(_ who: String, _ why: String) {
      count += 1
      if first.count < ImportSummary.listed { first.append((who, why)) }
    }
  }

  package private(set) var total = 0
  package private(set) var sent = 0
  package private(set) var kinds: [String: Int] = [:]
  package private(set) var newIds = 0
  package private(set) var losses: [ImportLoss: Int] = [:]
  package private(set) var without = Listed()
  package private(set) var held = Listed()
  /// Accounts refused before anything is sent (a duplicate, or one the target cannot make).
  package private(set) var refused = Listed()
  /// What the held-back accounts would lose (their flags are the hint).
  package private(set) var heldLosses: Set<ImportLoss> = []
  let provider: ProviderKind

  package init(provider: ProviderKind) {
    self.provider = provider
  }

  package mutating func add(_ check: ImportCheck) {
    total += 1
    let account = check.account
    let who = account.email ?? account.id ?? "?"
    if let reason = check.refused {
      refused.add(who, reason)
      return
    }
    if let reason = check.heldBack {
      held.add(who, reason)
      heldLosses.formUnion(check.losses)
      return
    }
    sent += 1
    for loss in check.losses { losses[loss, default: 0] += 1 }
    if provider == .firebase {
      if account.id == nil { newIds += 1 }
    } else {
      if account.id.map(AccountImportPlan.isUUID) != true { newIds += 1 }
    }
    if let reason = check.withoutPassword {
      without.add(who, reason)
    } else if let kind = check.hashKind {
      kinds[kind, default: 0] += 1
    }
  }

}
