import Essentials
import JSONKit

/// The text `user import` prints: counts, then the accounts that need a look (new ids, no
/// password, skipped, failed), at most `listed` of each (the rest are in `--report`). Never a hash.
package enum ImportSummary {
  package static let listed = 20

  package static func text(
    _ outcomes: [ImportOutcome], total: Int, format: AccountFileFormat, source: String, backend: String
  ) -> String {
    text(ImportTally(outcomes), total: total, format: format, source: source, backend: backend)
  }

  package static func text(
    _ tally: ImportTally, total: Int, format: AccountFileFormat, source: String, backend: String
  ) -> String {
    let imported = tally.count(.imported)
    var lines = ["Imported \(imported) of \(total) accounts into \(backend) from \(source) (\(format.rawValue))."]
    lines.append("  imported:              \(imported)")
    lines.append("  without a password:    \(tally.withoutPassword.count)")
    lines.append("  skipped, already there: \(tally.skipped.count)")
    let codes = tally.failedByCode.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    lines.append("  failed:                \(tally.failed.count)" + (codes.isEmpty ? "" : " (\(codes))"))
    if tally.unknown.count > 0 { lines.append("  unknown (no answer):   \(tally.unknown.count)") }
    if tally.count(.notStarted) > 0 { lines.append("  not started:           \(tally.count(.notStarted))") }
    lines.append("  held back:             \(tally.heldBack.count)")
    lines += lossLines(tally.lossCounts)
    section(&lines, "New ids (the target would not take the old one)", tally.renamed) {
      "\(who($0)): \($0.sourceId ?? "") → \($0.newId ?? "")"
    }
    section(&lines, "Imported without a password", tally.withoutPassword) { "\(who($0)): \($0.withoutPassword ?? "")" }
    section(&lines, "Skipped (an account with this address or id is there; not changed)", tally.skipped) { who($0) }
    section(&lines, "Failed", tally.failed) { "\(who($0)): \($0.errorCode ?? "error"): \($0.message ?? "")" }
    section(&lines, "Held back (they would arrive weaker than they left; nothing was sent for them)", tally.heldBack) {
      "\(who($0)): \($0.message ?? "")"
    }
    section(&lines, "Sent, no answer (may have been created; --resume sends them again)", tally.unknown) { who($0) }
    return lines.joined(separator: "\n")
  }

  /// The counts of `--json` (`import`): every account of the run in exactly one of imported,
  /// skipped, failed, unknown and not_started; `without_password` counts imported ones.
  package static func counts(_ outcomes: [ImportOutcome], total: Int) -> JSON {
    counts(ImportTally(outcomes), total: total)
  }

  package static func counts(_ tally: ImportTally, total: Int) -> JSON {
    [
      "total": .int(total), "imported": .int(tally.count(.imported)),
      "without_password": .int(tally.withoutPassword.count), "skipped": .int(tally.count(.skippedExisting)),
      "failed": .int(tally.count(.failed)), "unknown": .int(tally.count(.unknown)),
      "not_started": .int(tally.count(.notStarted)), "held_back": .int(tally.count(.heldBack)),
      "losses": .object(tally.lossCounts),
    ]
  }

  /// The counts of a dry run's `--json` (`import`), by the same names as a run's.
  package static func counts(_ tally: ImportDryRunTally) -> JSON {
    [
      "dry_run": true, "total": .int(tally.total), "would_import": .int(tally.sent),
      "without_password": .int(tally.without.count), "new_ids": .int(tally.newIds),
      "held_back": .int(tally.held.count), "refused": .int(tally.refused.count),
      "losses": .object(lossCounts(tally.losses)),
    ]
  }

  static func lossCounts(_ losses: [ImportLoss: Int]) -> JSONObject {
    JSONObject(losses.sorted { $0.key < $1.key }.map { ($0.key.rawValue, JSON.int($0.value)) })
  }

  /// The error of a run that held accounts back (exit 1), or of a dry run that would.
  package static func heldBackError(_ held: Int, total: Int, losses: some Sequence<ImportLoss>, dryRun: Bool)
    -> AuthError
  {
    let flags = Set(losses.filter(\.weakens).compactMap(\.flag)).sorted().joined(separator: ", ")
    let verb = dryRun ? "would be held back" : "were held back"
    return AuthError(
      .validationFailed,
      message: "\(held) of \(total) accounts \(verb): they would arrive weaker than they left (listed above).",
      hint: "Fix the file (--db exports the hashes and factors), or accept the loss by name: \(flags).")
  }

  /// "  lost on the way:       identities 3, phone 2" (what the imported accounts could not carry).
  static func lossLines(_ counts: JSONObject) -> [String] {
    let shown = counts.pairs.map { "\($0.0) \($0.1.int ?? 0)" }
    return shown.isEmpty ? [] : ["  lost on the way:       " + shown.joined(separator: ", ")]
  }

  /// `--dry-run`: what would be sent, held back and lost, from the file and the target's settings
  /// (accounts already there are not known: nothing is asked of them).
  package static func dryRun(_ tally: ImportDryRunTally, format: AccountFileFormat, source: String, backend: String)
    -> String
  {
    var lines = [
      "Dry run: nothing was sent. \(tally.total) accounts from \(source) (\(format.rawValue)) into \(backend): \(tally.sent) would be imported:"
    ]
    let described = tally.kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    lines.append(
      "  with a password hash:  \(tally.kinds.values.reduce(0, +))" + (described.isEmpty ? "" : " (\(described))"))
    lines.append("  without a password:    \(tally.without.count)")
    lines.append("  given a new id:        \(tally.newIds)")
    lines.append("  held back:             \(tally.held.count)")
    if tally.refused.count > 0 { lines.append("  refused (not sent):    \(tally.refused.count)") }
    lines += lossLines(lossCounts(tally.losses))
    lines.append("Accounts already there would be skipped; a dry run does not ask the backend which they are.")
    section(&lines, "Without a password", tally.without)
    section(&lines, "Refused (they would fail; nothing would be sent for them)", tally.refused)
    section(&lines, "Held back (they would arrive weaker than they left)", tally.held)
    return lines.joined(separator: "\n")
  }

  /// A dry run's list: its title, each of its first accounts with why, and how many more.
  static func section(_ lines: inout [String], _ title: String, _ list: ImportDryRunTally.Listed) {
    guard list.count > 0 else { return }
    lines.append(title + ":")
    for (who, why) in list.first { lines.append("  \(who): \(why)") }
    if list.count > listed { lines.append("  … and \(list.count - listed) more") }
  }

  static func kindName(_ kind: PasswordHashString.Kind) -> String {
    switch kind {
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
    _ lines: inout [String], _ title: String, _ sample: ImportTally.Sample, _ line: (ImportOutcome) -> String
  ) {
    guard sample.count > 0 else { return }
    lines.append(title + ":")
    for outcome in sample.first { lines.append("  " + line(outcome)) }
    if sample.count > listed {
      lines.append("  … and \(sample.count - listed) more (--report FILE lists every account)")
    }
  }
}
