import AuthCore
import Essentials

/// `diagnose EMAIL`: the account, the project's settings and the outbox, judged by `Diagnosis`.
struct DiagnoseCommand: Command {
  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let (provider, target) = try makeAdminProvider(invocation, context)
    let email = try accountArgument(invocation, kind: target.provider)
    let user = try await provider.user(UserReference(email))
    // Settings the backend will not tell (a service account without the config scope) are unknown, not fatal.
    let settings = try? await provider.settings()
    // No account: perhaps someone asked to change to this address and has not confirmed it.
    let owner = user == nil && email.contains("@") ? try? await provider.accountChangingEmail(to: email).user : nil
    var similar: [String] = []
    var deletion: AuditEntry?
    var notes: [String] = []
    if user == nil, owner == nil {
      // Deleted with authsh, on this backend? Else a near miss at the same domain (the backend's
      // filter on it). A deletion on another backend (staging) says nothing about this one.
      // Newest first, stopping at this backend's deletion: a large log is not read whole.
      let backend = BackendKey(target).canonical
      var unnamed: AuditEntry?
      try? context.auditLog?.scanNewestFirst { entry, _ in
        guard let entry, entry.command == "user delete", entry.outcome == "ok", entry.concerns(email) else {
          return true
        }
        if entry.backend == backend {
          deletion = entry
          return false
        }
        if entry.backend.isEmpty, unnamed == nil { unnamed = entry }
        return true
      }
      if deletion == nil, let old = unnamed {
        notes.append(
          "note: an audit line written by an older authsh, which names no backend, records `\(old.command)` of \(email) at \(old.time); "
            + "it may be about another backend, so it is not taken as this account's fate (authsh audit --all-backends shows it)."
        )
      }
      if deletion == nil { similar = await Self.similarAddresses(to: email, provider: provider) }
    }
    // An emulator tells whether sign-in is rate-limited right now.
    var limits: SignInLimitState?
    if user != nil { limits = await provider.signInLimits() }
    // The backend's trail (Supabase) for the last sign-in and recovery request; none is not fatal.
    var history: [AccountEvent]?
    if let user { history = try? await provider.history(user, since: nil) }
    var result = CommandResult(.diagnose)
    result.notes = notes
    let diagnosis = Diagnosis.evaluate(
      email: email, user: user, provider: target.provider, settings: settings, now: context.clock.unixNow,
      changingTo: owner,
      similar: similar, deletion: deletion, limits: limits, history: history)
    let found = user ?? owner
    result.payload = DiagnosisOutput(
      lookups: found.map { [UserLookup(query: email, user: $0)] } ?? [], diagnosis: diagnosis)
    if let found { context.noteEmail(found.email) }
    return result
  }
}

extension DiagnoseCommand {
  /// Accounts at the same domain whose address is a small edit away from `email`: up to 5 pages
  /// of 1,000 through the backend's filter on `@domain`. Never a reason for `diagnose` to fail.
  static func similarAddresses(to email: String, provider: any AdminProvider) async -> [String] {
    guard let at = email.lastIndex(of: "@") else { return [] }
    let domain = String(email[at...]).lowercased()
    guard domain.count > 1 else { return [] }
    var candidates: [String] = []
    var token: String?
    for _ in 0..<5 {
      guard let page = try? await provider.listUsers(UserListQuery(filter: domain, limit: 1000, pageToken: token))
      else { break }
      candidates += page.users.filter { !$0.deleted }.map(\.email)
      guard let next = page.nextPageToken else { break }
      token = next
    }
    return Diagnosis.nearMisses(of: email, among: candidates)
  }
}
