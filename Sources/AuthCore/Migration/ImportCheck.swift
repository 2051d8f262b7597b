import Essentials
import JSONKit

/// What an account loses on its way into the target, found before anything is sent.
package enum ImportLoss: String, Sendable, CaseIterable, Comparable {
  /// It signed in with a password and will have none (a hash the target cannot take, or none in the file).
  case password
  /// Its second factors (TOTP): neither backend's import takes a factor with its secret.
  case secondFactors = "second_factors"
  /// Firebase lets an unconfirmed address sign in; a Supabase project that asks for confirmation does not.
  case verified
  /// A phone number the target's import does not carry.
  case phone
  /// Ways in through other providers (Google, GitHub, SSO): they are linked again at the next sign-in there.
  case identities
  /// Supabase's user_metadata: Firebase accounts have none.
  case metadata
  /// A ban with an end: Firebase's disable has none, so the account stays disabled.
  case banEnd = "ban_end"
  /// A phone number not confirmed, or whose confirmation the file does not say: Firebase holds only
  /// confirmed numbers (it is left out there), Supabase gets it unconfirmed.
  case phoneUnconfirmed = "phone_unconfirmed"
  /// The file does not say whether it had second factors (a `\copy` of auth.users, firebase-tools'
  /// CSV, Supabase's admin list): unknown, never read as none.
  case factorsUnknown = "factors_unknown"
  /// Custom claims longer than Firebase's 1,000 characters.
  case claims
  /// When it was created and last signed in: Supabase's admin API sets both itself.
  case timestamps

  /// A loss that makes the account weaker (it can no longer sign in as before): not made without
  /// the flag that names it.
  package var weakens: Bool { [.password, .secondFactors, .verified].contains(self) }

  /// The flag that accepts this loss.
  package var flag: String? {
    switch self {
    case .password: return "--without-passwords"
    case .secondFactors: return "--drop-factors"
    case .verified: return "--confirm-unverified"
    default: return nil
    }
  }

  package static func < (a: ImportLoss, b: ImportLoss) -> Bool { a.rawValue < b.rawValue }
}

/// The losses a user has said yes to, by flag.
package struct ImportConsent: Sendable, Equatable {
  package var withoutPasswords = false
  package var dropFactors = false
  /// Import unconfirmed addresses as confirmed (they signed in unconfirmed before).
  package var confirmUnverified = false

  package init(withoutPasswords: Bool = false, dropFactors: Bool = false, confirmUnverified: Bool = false) {
    self.withoutPasswords = withoutPasswords
    self.dropFactors = dropFactors
    self.confirmUnverified = confirmUnverified
  }

  func allows(_ loss: ImportLoss) -> Bool {
    switch loss {
    case .password: return withoutPasswords
    case .secondFactors: return dropFactors
    case .verified: return confirmUnverified
    default: return true
    }
  }
}

/// One account checked against the target: the record to send, what it loses, and why it is held
/// back (a weakening loss without its flag).
package struct ImportCheck: Sendable {
  package var account: PortableAccount
  package var losses: [ImportLoss]
  package var heldBack: String?
  /// Why the account would arrive without a password (nil: it carries one).
  package var withoutPassword: String?
  /// The kind of its password hash as the summary names it (nil: no hash).
  package var hashKind: String?
  /// Why it is not sent though it loses nothing by name (it fails as `validation_failed`): the
  /// target cannot make it at all, or it repeats an earlier account of the file (set by the reader
  /// of the file, which sees the accounts in order: `ImportDuplicates`).
  package var refused: String?

  /// Sent to the backend: neither held back nor refused.
  package var willSend: Bool { heldBack == nil && refused == nil }

  /// Marks it a duplicate of an earlier account of the file (a reason it had already stays).
  package mutating func markDuplicate() {
    if refused == nil { refused = ImportDuplicates.message }
  }

  /// An unconfirmed address into Supabase cannot sign in with its password whatever the project's
  /// confirmation setting (GoTrue's password grant refuses it: `token.go`, "Email not confirmed").
  package init(
    _ given: PortableAccount, target: ProviderKind, consent: ImportConsent, now: Int
  ) {
    var account = given
    var losses: Set<ImportLoss> = []
    // `user export` (its records name their `source`) says whether there was a password: a hash,
    // or a note on why it is missing. Other files only list the ways in.
    let hadPassword =
      given.passwordHash != nil || given.passwordNote != nil
      || (given.source == nil && given.providers.contains { ["email", "password"].contains($0) })
    // The hash is read once: what the target makes of it and the summary's name for its kind.
    let kind = given.passwordHash.map(PasswordHashString.kind(of:))
    let withoutPassword =
      target == .firebase
      ? AccountImportPlan.firebaseWithoutPassword(given, kind: kind)
      : AccountImportPlan.supabasePassword(given, kind: kind).withoutPassword
    // Every field of the ledger, none forgotten: what the target carries, converts, holds or counts.
    let facts = LedgerFacts(now: now, hadPassword: hadPassword, withoutPassword: withoutPassword)
    for field in PortableField.allCases {
      switch FidelityLedger.fate(field, of: given, into: target, facts: facts) {
      case .held(let loss)?, .counted(let loss)?: losses.insert(loss)
      case .carried?, .converted?, nil: break
      }
    }
    if losses.contains(.verified), consent.confirmUnverified { account.emailVerified = true }
    self.account = account
    refused = Self.unmakeable(given, target: target)
    self.withoutPassword = withoutPassword
    self.hashKind = kind.map(ImportSummary.kindName)
    self.losses = losses.sorted()
    let refused = self.losses.filter { $0.weakens && !consent.allows($0) }
    heldBack = refused.isEmpty ? nil : refused.map { Self.reason($0, given, withoutPassword) }.joined(separator: "; ")
  }

  /// An account the target cannot make: one that names no account at all (a random id would make
  /// a new one on every run), or one Supabase has nothing to make it from (Firebase's anonymous
  /// accounts: GoTrue's admin create needs an e-mail address or a phone number).
  static func unmakeable(_ account: PortableAccount, target: ProviderKind) -> String? {
    let email = account.email.map { !$0.isEmpty } ?? false
    let phone = account.phone.flatMap(PortableAccount.e164) != nil
    if email || phone { return nil }
    if account.id?.isEmpty ?? true { return "the record names no account: it has no id, address or phone number" }
    return target == .supabase
      ? "Supabase makes no account without an e-mail address or a phone number (an anonymous account cannot be imported)"
      : nil
  }

  static func reason(_ loss: ImportLoss, _ account: PortableAccount, _ withoutPassword: String?) -> String {
    switch loss {
    case .password:
      return "would arrive without its password (\(withoutPassword ?? "no hash")): --without-passwords accepts that"
    case .secondFactors:
      return "would arrive without its \(account.factors?.count ?? 0) second factor(s): --drop-factors accepts that"
    case .verified:
      return
        "its address is unconfirmed and the target asks for confirmation before sign-in: --confirm-unverified imports it confirmed"
    default: return loss.rawValue
    }
  }
}

extension ImportOutcome {
  /// A dry run's outcome of a checked account: it would be imported, or it is held back and why.
  package static func planned(_ checked: ImportCheck, index: Int) -> ImportOutcome {
    if checked.refused != nil { return refused(checked) }
    var outcome = ImportOutcome(
      index: index, account: checked.account, status: checked.heldBack == nil ? .wouldImport : .heldBack)
    outcome.message = checked.heldBack
    outcome.withoutPassword = checked.heldBack == nil ? checked.withoutPassword : nil
    outcome.losses = checked.losses
    return outcome
  }
}
