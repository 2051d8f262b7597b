import Essentials
import HostedLimits

extension Diagnosis {
  /// How long a mailed link stays usable when the backend does not say: hosted Supabase projects'
  /// `mailer_otp_exp` (and the Supabase CLI's `otp_expiry`), the same number the emulator uses.
  package static let linkLifetime = ProductionLimits.Supabase.linkLifetime

  /// "Why can't this person sign in?" from the admin view alone, in the order support reads it: no
  /// account; no password sign-in method; e-mail unconfirmed where that blocks sign-in; disabled;
  /// a recovery mail pending; the resend window still closed; then, when nothing blocks, `ok`.
  /// `history`: the account's entries of the backend's audit trail, newest first (Supabase), for
  /// the last sign-in and the last recovery request.
  package static func evaluate(
    email: String, user: AdminUser?, provider: ProviderKind, settings: ProjectSettings?, now: Int,
    changingTo owner: AdminUser? = nil, similar: [String] = [], deletion: AuditEntry? = nil,
    limits: SignInLimitState? = nil, history: [AccountEvent]? = nil
  ) -> Diagnosis {
    let quoted = Self.quoted(email)
    if user == nil, let owner { return pendingChange(to: email, owner: owner) }
    guard let user else { return noAccount(email, similar: similar, deletion: deletion) }
    var findings: [Finding] = []
    if settings?.passwordSignInEnabled == false {
      findings.append(
        Finding(
          code: "password_sign_in_disabled", message: "E-mail/password sign-in is turned off for the whole project."))
    }
    let wayIn = wayInFinding(user, quoted: quoted)
    if let wayIn { findings.append(wayIn) }
    if wayIn?.code == "soft_deleted" {
      var diagnosis = Diagnosis(email: email, findings: findings, canSignIn: false)
      diagnosis.addHistory(history)
      return diagnosis
    }
    // An invite, SSO or anonymous account says more than "unconfirmed".
    let confirmationMatters = !["invite_pending", "sso_user", "anonymous"].contains(wayIn?.code ?? "")
    if !user.confirmed, confirmationMatters {
      switch provider {
      case .supabase:
        // GoTrue refuses a password sign-in with an unconfirmed address whatever the project's
        // confirmation setting (that setting only decides whether sign-up confirms at once).
        findings.append(
          Finding(
            code: "email_unconfirmed", message: "The e-mail address is not confirmed, so password sign-in is refused.",
            fix: "authsh user confirm \(quoted)"))
      case .firebase:
        findings.append(
          Finding(
            code: "email_unconfirmed",
            message:
              "The e-mail address is not verified. Firebase still lets the user sign in; an app that checks it will not.",
            fix: "authsh user confirm \(quoted)", blocking: false))
      }
    }
    if let pending = user.pendingEmail {
      findings.append(
        Finding(
          code: "email_change_pending",
          message:
            "A change of address to \(pending) is waiting for confirmation\(user.emailChangeSentAt.map { " (mail sent at \($0))" } ?? ""); until it is confirmed the account signs in as \(user.email).",
          fix: "authsh user set-email \(quoted) \(Self.quoted(pending)) --confirmed", blocking: false))
    }
    if user.disabled {
      let until = user.disabledUntil.map { " until \($0)" } ?? ""
      findings.append(
        Finding(code: "disabled", message: "The account is disabled\(until).", fix: "authsh user enable \(quoted)"))
    }
    if let factors = factorFinding(user, quoted: quoted) {
      findings.append(factors)
    } else if settings?.totpEnabled == false {
      findings.append(
        Finding(
          code: "totp_off",
          message:
            "TOTP second factors are off for this project, so enrolling an authenticator app (authsh mfa enroll) is refused: a project owner switches them on with PATCH https://identitytoolkit.googleapis.com/v2/projects/PROJECT/config?updateMask=mfa and a totpProviderConfig.",
          blocking: false))
    }
    if let sent = user.recoverySentAt.flatMap(Self.unixTime), now - sent < linkLifetime {
      // `recovery_sent_at` is set by a recovery mail and by `user link recovery` (`generate_link`)
      // alike: the backend does not say which.
      findings.append(
        Finding(
          code: "recovery_pending",
          message:
            "A recovery link or mail was issued at \(user.recoverySentAt ?? ""); it works until about \(Self.iso(sent + linkLifetime)) (links last \(linkLifetime / 60) minutes on hosted projects). If no mail arrived, hand over a new link.",
          fix: "authsh user link recovery \(quoted)", blocking: false))
    } else if user.pendingMail?.kind.contains("recover") == true || user.pendingMail?.kind == "PASSWORD_RESET" {
      findings.append(
        Finding(
          code: "recovery_pending", message: "A password-recovery mail is waiting in the emulator's outbox.",
          fix: "authsh inbox \(quoted)", blocking: false))
    }
    // GoTrue keeps one window per kind (`recovery_sent_at` for recovery and magic links,
    // `confirmation_sent_at` for confirmations): a recent recovery mail does not hold back a
    // confirmation mail, nor the other way round.
    let interval = settings?.mailInterval ?? ProductionLimits.Supabase.mailInterval
    let windows: [(sent: Int?, kind: String, what: String)] = [
      (
        user.confirmed ? nil : user.confirmationSentAt.flatMap(Self.unixTime), "confirm", "A confirmation mail went out"
      ),
      (user.recoverySentAt.flatMap(Self.unixTime), "recovery", "A recovery link or mail was issued"),
    ]
    for window in windows {
      guard let sent = window.sent, now - sent < interval else { continue }
      let kindName = window.kind == "confirm" ? "confirmation" : "recovery"
      findings.append(
        Finding(
          code: "resend_window_closed",
          message:
            "\(window.what) \(now - sent) s ago; the backend sends the next \(kindName) mail after \(interval - (now - sent)) s more.",
          fix: "authsh user link \(window.kind) \(quoted)", blocking: false))
    }
    if let limits, limits.enforced, !limits.limited.isEmpty, provider == .supabase {
      let clients = limits.limited.keys.sorted().map { $0 == "local" ? "this machine" : $0 }.joined(separator: ", ")
      let wait = limits.limited.values.max() ?? 0
      findings.append(
        Finding(
          code: "rate_limited",
          message:
            "Sign-in is rate-limited right now on this emulator for \(clients) (429 over_request_rate_limit): the next attempt is allowed in \(wait) s, \(Self.signInBurst) again after \(Self.refillSeconds) s. The password may well be right.",
          fix: nil))
    }
    let canSignIn = !findings.contains(where: \.blocking)
    if canSignIn {
      findings.append(
        Finding(
          code: "ok",
          message:
            "The account looks able to sign in with a password. If it still fails and no rate limit applies (below), the password is wrong: hand over a recovery link.",
          fix: "authsh user link recovery \(quoted)", blocking: false))
      findings.append(rateLimitNote(provider, limits: limits))
    }
    var diagnosis = Diagnosis(email: user.email.isEmpty ? email : user.email, findings: findings, canSignIn: canSignIn)
    diagnosis.addHistory(history)
    return diagnosis
  }

  /// The last sign-in and the last recovery request of the audit trail (newest first).
  mutating func addHistory(_ history: [AccountEvent]?) {
    guard let history else { return }
    lastSignIn = history.first { $0.action == "login" }?.time
    lastRecoveryRequest = history.first { $0.action == "user_recovery_requested" }?.time
  }

  static let signInBurst = ProductionLimits.Supabase.burst
  /// Seconds for an empty sign-in bucket to fill again.
  static let refillSeconds = Int(
    Double(ProductionLimits.Supabase.burst) * 300 / ProductionLimits.Supabase.tokenPerFiveMinutes)

  /// When nothing in the account blocks sign-in: the rate limit that could, with the project's numbers.
  static func rateLimitNote(_ provider: ProviderKind, limits: SignInLimitState?) -> Finding {
    switch provider {
    case .supabase:
      let perFive = Int(ProductionLimits.Supabase.tokenPerFiveMinutes)
      let every = Int(300 / ProductionLimits.Supabase.tokenPerFiveMinutes)
      var now = ""
      if let limits {
        now =
          limits.enforced
          ? " This emulator's limiter says no client is limited now."
          : " This emulator does not limit sign-ins (only with --like-production)."
      }
      return Finding(
        code: "rate_limit_possible",
        message:
          "If sign-in answers \"rate limited\" (429 over_request_rate_limit), the person's network made more than \(signInBurst) attempts at once or \(perFive) in 5 minutes (hosted defaults, per client address, not per account): one more is allowed every \(every) s, \(signInBurst) again after \(refillSeconds) s.\(now)",
        blocking: false)
    case .firebase:
      return Finding(
        code: "rate_limit_possible",
        message:
          "If sign-in answers TOO_MANY_ATTEMPTS_TRY_LATER, Firebase has locked the account for a while after many failed attempts (Google does not publish the numbers); the lock lifts by itself, and a new password ends it at once.",
        fix: nil, blocking: false)
    }
  }

  /// No account: deleted (the audit log says so), a near miss of an existing address, or neither.
  static func noAccount(_ email: String, similar: [String], deletion: AuditEntry?) -> Diagnosis {
    var findings: [Finding] = []
    if let deletion {
      let who = deletion.operatorName.map { " by \($0)" } ?? ""
      findings.append(
        Finding(
          code: "account_deleted",
          message:
            "There is no account for \(email): it was deleted at \(deletion.time)\(who) with authsh (`\(deletion.command)`, profile \(deletion.profile)).",
          fix: "authsh audit \(Self.quoted(email))"))
    } else if let best = similar.first {
      let others = similar.dropFirst().prefix(2)
      let also = others.isEmpty ? "" : " (or " + others.joined(separator: ", ") + ")"
      findings.append(
        Finding(
          code: "no_account", message: "There is no account for \(email). Did you mean \(best)?\(also)",
          fix: "authsh diagnose \(Self.quoted(best))"))
    } else if case .phone(let number) = UserReference(email) {
      findings.append(
        Finding(
          code: "no_account",
          message: "There is no account with the phone number \(number). Check the number and its country code.",
          fix: nil))
    } else if !email.contains("@") {
      findings.append(
        Finding(code: "no_account", message: "There is no account with the user id \(email).", fix: nil))
    } else {
      findings.append(
        Finding(
          code: "no_account",
          message:
            "There is no account for \(email), nor one with a similar address at the same domain. Check the spelling.",
          fix: "authsh user list --filter \(Self.quoted(Self.filterHint(email)))"))
    }
    return Diagnosis(email: email, findings: findings, canSignIn: false)
  }

  /// Addresses among `candidates` at the same domain as `email` whose local part is a small edit
  /// away (at most 1 for short names, 2 from 6 characters; a swap of two letters is one edit),
  /// closest first.
  package static func nearMisses(of email: String, among candidates: [String]) -> [String] {
    let parts = email.lowercased().split(separator: "@", maxSplits: 1).map(String.init)
    guard parts.count == 2, !parts[0].isEmpty else { return [] }
    let limit = parts[0].count >= 6 ? 2 : 1
    var scored: [(String, Int)] = []
    for candidate in candidates {
      let other = candidate.lowercased().split(separator: "@", maxSplits: 1).map(String.init)
      guard other.count == 2, other[1] == parts[1], other[0] != parts[0] else { continue }
      let distance = Suggest.editDistance(parts[0], other[0])
      if distance <= limit, !scored.contains(where: { $0.0 == candidate }) { scored.append((candidate, distance)) }
    }
    return scored.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.map(\.0)
  }

  /// `diagnose NEW`: no account has the address yet, but `owner` asked to change to it.
  static func pendingChange(to email: String, owner: AdminUser) -> Diagnosis {
    let sent = owner.emailChangeSentAt.map { " (the mail went out at \($0))" } ?? ""
    return Diagnosis(
      email: email,
      findings: [
        Finding(
          code: "email_change_pending",
          message:
            "No account has \(email) yet: \(owner.email) asked to change to it and has not confirmed the change\(sent). Until then the person signs in as \(owner.email); the link in the mail to \(email) completes the change.",
          fix: "authsh user set-email \(Self.quoted(owner.email)) \(Self.quoted(email)) --confirmed")
      ], canSignIn: false)
  }

  /// Shell-quoted when needed (`'o brien@example.com'`).
  static func quoted(_ text: String) -> String {
    let plain = text.allSatisfy { $0.isLetter || $0.isNumber || "@._+-".contains($0) }
    return plain && !text.isEmpty ? text : "'" + text.replacingAll("'", with: "'\\''") + "'"
  }

  /// The local part before `@` (or the text), for `user list --filter`.
  static func filterHint(_ email: String) -> String {
    let local = email.split(separator: "@", maxSplits: 1).first.map(String.init) ?? email
    return local.isEmpty ? email : local
  }

  static func unixTime(_ iso: String) -> Int? { UnixTime.parseISO(iso) }

  static func iso(_ unix: Int) -> String { CivilTime.iso8601(seconds: unix) }
}
