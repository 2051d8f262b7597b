import AuthCore
import Essentials

/// The support commands (`user …`, `diagnose`, `audit`): the admin API of the target's backend.
/// Reads are in `+SupportRead`; commands that grant access or change accounts (readonly refusal,
/// confirmation, audit: `SupportGuard`, from the row's `access`) in `+SupportChange`.
extension CommandRunner {
  /// The admin provider for `target`, with the credential's secrets registered with the redactor.
  func makeAdminProvider(_ invocation: Invocation, _ context: ShellContext, target: Target) throws -> any AdminProvider
  {
    guard let make = context.makeAdminProvider else {
      throw AuthError(.notSupported, message: "Admin commands are not available here.")
    }
    let credential = try AdminCredential.resolve(
      for: target, environment: context.environment, keyring: context.secretStore)
    for secret in credential.secrets { context.redactor.register(secret) }
    return make(target, credential, trace(invocation, context))
  }

  func makeAdminProvider(_ invocation: Invocation, _ context: ShellContext) throws -> (any AdminProvider, Target) {
    let target = try target(invocation, context)
    return (try makeAdminProvider(invocation, context, target: target), target)
  }

  /// The EMAIL argument, trimmed, or a usage error. With `kind`, the argument names an existing
  /// account: text that is no address, id or phone number there is refused before anything is sent.
  func accountArgument(_ invocation: Invocation, kind: ProviderKind?) throws -> String {
    let text = (invocation[.user] ?? "").trimmingWhitespace
    guard !text.isEmpty else {
      throw AuthError(.usage, message: "Which account? Give its e-mail address, user id or E.164 phone number.")
    }
    // The same rule as each line of `--from FILE` (`BatchInput.entry`): nothing is sent for it.
    if text.contains("@"), !Validator.isAccountAddress(text) {
      throw AuthError(.validationFailed, message: "'\(BatchInput.shown(text))' is not an e-mail address.")
    }
    if let kind, UserReference.parse(text, for: kind) == nil { throw UserReference.refusal(text, for: kind) }
    return text
  }

  /// The account named by the EMAIL argument, or `user_not_found` (also for a soft-deleted
  /// account, which nothing can change, unless `allowDeleted`).
  func requireUser(_ invocation: Invocation, _ provider: any AdminProvider, allowDeleted: Bool = false) async throws
    -> AdminUser
  {
    let text = try accountArgument(invocation, kind: provider.kind)
    guard let user = try await provider.user(UserReference(text)) else {
      throw AuthError(.userNotFound, message: "No account for \(text).")
    }
    if let deletedAt = user.deletedAt, !allowDeleted {
      throw AuthError(
        .userNotFound, message: "The account \(text) was deleted at \(deletedAt) (soft delete); it cannot be changed.")
    }
    return user
  }

  /// `diagnose EMAIL`: the account, the project's settings and the outbox, judged by `Diagnosis`.
  func diagnose(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
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
    result.diagnosis = Diagnosis.evaluate(
      email: email, user: user, provider: target.provider, settings: settings, now: context.clock.unixNow,
      changingTo: owner,
      similar: similar, deletion: deletion, limits: limits, history: history)
    if let found = user ?? owner {
      result.lookups = [UserLookup(query: email, user: found)]
      context.noteEmail(found.email)
    }
    return result
  }

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

  /// `audit [EMAIL] [--since DURATION]`: the local log of changes, oldest first; only those to
  /// one account (its e-mail address or id) when EMAIL is given.
  func readAudit(_ invocation: Invocation, _ context: ShellContext) throws -> CommandResult {
    let since = invocation[.since].map { context.clock.unixNow - $0.seconds }
    var result = CommandResult(.audit)
    guard let log = context.auditLog else {
      result.audit = []
      return result
    }
    let account = invocation[.auditUser]?.trimmingWhitespace
    // Streamed: only the lines about the account (and the numbers of unreadable ones) are kept.
    var read = AuditRead(entries: [])
    try log.scanNewestFirst { entry, number in
      guard let entry else {
        read.unreadableLines.append(number)
        return true
      }
      if let since, let time = UnixTime.parseISO(entry.time), time < since { return true }
      if let account, !entry.concerns(account) { return true }
      read.entries.append(entry)
      return true
    }
    read.entries.reverse()
    read.unreadableLines.reverse()
    let wanted = read.entries
    // The backend in use, when one is set: its lines only (support staff on production must not
    // read staging's deletions as production's).
    let backend = invocation[.allBackends] ? nil : (try? target(invocation, context)).map { BackendKey($0).canonical }
    result.audit = wanted.filter { backend == nil || $0.backend == backend }
    let others = wanted.count - (result.audit?.count ?? 0)
    if let backend, others > 0 {
      let unnamed = wanted.filter(\.backend.isEmpty).count
      let older = unnamed == 0 ? "" : " (\(unnamed) of them written by an older authsh, which names no backend)"
      result.notes.append(
        "\(others) line\(others == 1 ? "" : "s") about other backends \(others == 1 ? "is" : "are") not shown\(older): only \(backend)'s are; --all-backends shows every line."
      )
    }
    if !read.unreadableLines.isEmpty {
      let count = read.unreadableLines.count
      let numbers = read.unreadableLines.prefix(10).map(String.init).joined(separator: ", ") + (count > 10 ? ", …" : "")
      result.notes.append(
        "warning: \(count) line\(count == 1 ? "" : "s") of the audit log could not be read and \(count == 1 ? "is" : "are") not shown (line\(count == 1 ? "" : "s") \(numbers))"
      )
    }
    return result
  }
}
