import Essentials

/// The ids, addresses (in any case) and phone numbers the accounts of a file named so far: a later
/// account that names one of them again is a duplicate, and only the first is imported. Both
/// backends would refuse or skip it anyway, each its own way (Supabase: "already there", Firebase:
/// a refused call); found before anything is sent, it is the same on both and in the dry run.
/// Keeps a 64-bit hash per key, not the text: a million accounts cost tens of megabytes, not hundreds.
package struct ImportDuplicates: Sendable {
  private var seen = Set<Int>()

  package init() {}

  package static let message = "the same id, address or phone number is earlier in the file: only the first is imported"

  /// Whether `account` names an id, address or phone an earlier one named; the keys of an account
  /// that is no duplicate are remembered.
  package mutating func isDuplicate(_ account: PortableAccount) -> Bool {
    let id = account.id.map { Self.key(0, $0) }
    let email = account.email.map { Self.key(1, $0.lowercasedKeepingLower) }
    let phone = account.phone.flatMap(PortableAccount.e164).map { Self.key(2, $0) }
    if [id, email, phone].contains(where: { $0.map(seen.contains) == true }) { return true }
    for key in [id, email, phone] { if let key { seen.insert(key) } }
    return false
  }

  private static func key(_ kind: UInt8, _ text: String) -> Int {
    var hasher = Hasher()
    hasher.combine(kind)
    hasher.combine(text)
    return hasher.finalize()
  }
}

extension ImportOutcome {
  /// The outcome of an account nothing is sent for: refused (`refused(_:)`) or held back, with
  /// why and what it would lose.
  package static func notSent(_ checked: ImportCheck) -> ImportOutcome {
    guard checked.refused == nil else { return refused(checked) }
    var outcome = ImportOutcome(index: 0, account: checked.account, status: .heldBack)
    outcome.message = checked.heldBack
    outcome.losses = checked.losses
    return outcome
  }

  /// An account refused before anything is sent (`ImportCheck.refused`): failed, not sent.
  package static func refused(_ checked: ImportCheck) -> ImportOutcome {
    var outcome = ImportOutcome(index: 0, account: checked.account, status: .failed)
    outcome.errorCode = ErrorCode.validationFailed.rawValue
    outcome.message = checked.refused
    return outcome
  }
}
