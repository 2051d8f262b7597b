import Essentials
import JSONKit

/// The text `user import` prints: counts, then the accounts that need a look (new ids, no
/// password, skipped, failed), at most `listed` of each (the rest are in `--report`). Never a hash.
public enum ImportSummary {
  public static let listed = 20

  public static func text(
    _ outcomes: [ImportOutcome], total: Int, format: AccountFileFormat, source: String, backend: String
  ) -> String {
    let imported = outcomes.filter { $0.status == .imported }
    let skipped = outcomes.filter { $0.status == .skippedExisting }
    let failed = outcomes.filter { $0.status == .failed }
    let unknown = outcomes.filter { $0.status == .unknown }
    let notStarted = outcomes.filter { $0.status == .notStarted }
    let heldBack = outcomes.filter { $0.status == .heldBack }
    let withoutPassword = imported.filter { $0.withoutPassword != nil }
    let renamed = imported.filter { $0.newId != nil && $0.sourceId != nil }
    var lines = ["Imported \(imported.count) of \(total) accounts into \(backend) from \(source) (\(format.rawValue))."]
    lines.append("  imported:              \(imported.count)")
    lines.append("  without a password:    \(withoutPassword.count)")
    lines.append("  skipped, already there: \(skipped.count)")
    var byCode: [String: Int] = [:]
    for outcome in failed { byCode[outcome.errorCode ?? "unknown", default: 0] += 1 }
    let codes = byCode.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    lines.append("  failed:                \(failed.count)" + (codes.isEmpty ? "" : " (\(codes))"))
    if !unknown.isEmpty { lines.append("  unknown (no answer):   \(unknown.count)") }
    if !notStarted.isEmpty { lines.append("  not started:           \(notStarted.count)") }
    lines.append("  held back:             \(heldBack.count)")
    lines += lossLines(outcomes.filter { $0.status == .imported })
    section(&lines, "New ids (the target would not take the old one)", renamed) {
      "\(who($0)): \($0.sourceId ?? "") → \($0.newId ?? "")"
    }
    section(&lines, "Imported without a password", withoutPassword) { "\(who($0)): \($0.withoutPassword ?? "")" }
    section(&lines, "Skipped (an account with this address or id is there; not changed)", skipped) { who($0) }
    section(&lines, "Failed", failed) { "\(who($0)): \($0.errorCode ?? "error"): \($0.message ?? "")" }
    section(&lines, "Held back (they would arrive weaker than they left; nothing was sent for them)", heldBack) {
      "\(who($0)): \($0.message ?? "")"
    }
    section(&lines, "Sent, no answer (may have been created; --resume sends them again)", unknown) { who($0) }
    return lines.joined(separator: "\n")
  }

  /// The counts of `--json` (`import`): every account of the run in exactly one of imported,
  /// skipped, failed, unknown and not_started; `without_password` counts imported ones.
  public static func counts(_ outcomes: [ImportOutcome], total: Int) -> JSON {
    func count(_ status: ImportOutcome.Status) -> Int { outcomes.filter { $0.status == status }.count }
    return [
      "total": .int(total), "imported": .int(count(.imported)),
      "without_password": .int(outcomes.filter { $0.status == .imported && $0.withoutPassword != nil }.count),
      "skipped": .int(count(.skippedExisting)), "failed": .int(count(.failed)), "unknown": .int(count(.unknown)),
      "not_started": .int(count(.notStarted)), "held_back": .int(count(.heldBack)),
      "losses": .object(lossCounts(outcomes.filter { $0.status == .imported })),
    ]
  }

  /// How many imported accounts lost what, by kind.
  static func lossCounts(_ outcomes: [ImportOutcome]) -> JSONObject {
    var counts = JSONObject()
    for loss in ImportLoss.allCases.sorted() {
      let n = outcomes.filter { $0.losses.contains(loss) }.count
      if n > 0 { counts[loss.rawValue] = .int(n) }
    }
    return counts
  }

  /// "  lost on the way:       identities 3, phone 2" (what the imported accounts could not carry).
  static func lossLines(_ outcomes: [ImportOutcome]) -> [String] {
    let counts = lossCounts(outcomes).pairs.map { "\($0.0) \($0.1.int ?? 0)" }
    return counts.isEmpty ? [] : ["  lost on the way:       " + counts.joined(separator: ", ")]
  }

  /// `--dry-run`: what would be sent, held back and lost, from the file and the target's settings
  /// (accounts already there are not known: nothing is asked of them).
  public static func dryRun(
    _ checks: [ImportCheck], format: AccountFileFormat, source: String, backend: String,
    provider: ProviderKind, now: Int
  ) -> String {
    var kinds: [String: Int] = [:]
    var without: [(String, String)] = []
    var newIds = 0
    let sent = checks.filter { $0.heldBack == nil }
    for check in sent {
      let account = check.account
      let reason: String?
      if provider == .firebase {
        reason = AccountImportPlan.firebaseEntry(account, localId: account.id ?? "").withoutPassword
        if account.id == nil { newIds += 1 }
      } else {
        reason = AccountImportPlan.supabaseBody(account, now: now).withoutPassword
        if account.id.map(AccountImportPlan.isUUID) != true { newIds += 1 }
      }
      if let reason {
        without.append((account.email ?? account.id ?? "?", reason))
      } else if let hash = account.passwordHash {
        kinds[kindName(hash), default: 0] += 1
      }
    }
    let held = checks.filter { $0.heldBack != nil }
    var lines = [
      "Dry run: nothing was sent. \(checks.count) accounts from \(source) (\(format.rawValue)) into \(backend): \(sent.count) would be imported:"
    ]
    let described = kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    lines.append("  with a password hash:  \(kinds.values.reduce(0, +))" + (described.isEmpty ? "" : " (\(described))"))
    lines.append("  without a password:    \(without.count)")
    lines.append("  given a new id:        \(newIds)")
    lines.append("  held back:             \(held.count)")
    lines += lossLines(
      sent.map { check in
        var outcome = ImportOutcome(index: 0, account: check.account, status: .imported)
        outcome.losses = check.losses
        return outcome
      })
    lines.append("Accounts already there would be skipped; a dry run does not ask the backend which they are.")
    if !without.isEmpty {
      lines.append("Without a password:")
      for (who, reason) in without.prefix(listed) { lines.append("  \(who): \(reason)") }
      if without.count > listed { lines.append("  … and \(without.count - listed) more") }
    }
    if !held.isEmpty {
      lines.append("Held back (they would arrive weaker than they left):")
      for check in held.prefix(listed) {
        lines.append("  \(check.account.email ?? check.account.id ?? "?"): \(check.heldBack ?? "")")
      }
      if held.count > listed { lines.append("  … and \(held.count - listed) more") }
    }
    return lines.joined(separator: "\n")
  }

  static func kindName(_ hash: String) -> String {
    switch PasswordHashString.kind(of: hash) {
    case .bcrypt: return "bcrypt"
    case .firebaseScrypt: return "Firebase scrypt"
    case .firebaseImport(let config, _, _): return config.algorithm
    case .argon2: return "argon2"
    case .unknown: return "unknown"
    }
  }

  static func who(_ outcome: ImportOutcome) -> String {
    outcome.email ?? outcome.sourceId ?? outcome.newId ?? "#\(outcome.index + 1)"
  }

  static func section(
    _ lines: inout [String], _ title: String, _ outcomes: [ImportOutcome], _ line: (ImportOutcome) -> String
  ) {
    guard !outcomes.isEmpty else { return }
    lines.append(title + ":")
    for outcome in outcomes.prefix(listed) { lines.append("  " + line(outcome)) }
    if outcomes.count > listed {
      lines.append("  … and \(outcomes.count - listed) more (--report FILE lists every account)")
    }
  }
}
