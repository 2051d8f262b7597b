import HostedLimits

extension Diagnosis {
  /// How long a mailed link stays usable when the backend does not say: hosted Supabase projects'
  /// `mailer_otp_exp` (and the Supabase CLI's `otp_expiry`), the same number the emulator uses.
  public static let linkLifetime = ProductionLimits.Supabase.linkLifetime

  /// "Why can't this person sign in?" from the admin view alone, in the order support reads it: no
  /// account; no password sign-in method; e-mail unconfirmed where that blocks sign-in; disabled;
  /// a recovery mail pending; the resend window still closed; then, when nothing blocks, `ok`.
  /// `history`: the account's entries of the backend's audit trail, newest first (Supabase), for
  /// the last sign-in and the last recovery request.
  public static func evaluate(
    email: String, user: AdminUser?, provider: ProviderKind, settings: ProjectSettings?, now: Int,
    history: [AccountEvent]? = nil
  ) -> Diagnosis {
    let quoted = Self.quoted(email)
    guard let user else {
      return Diagnosis(
        email: email,
        findings: [
          Finding(
            code: "no_account", message: "There is no account for \(email). Check the spelling, or look for similar addresses.",
            fix: "authsh user list --filter \(Self.quoted(Self.filterHint(email)))")
        ], canSignIn: false)
    }
    var findings: [Finding] = []
    if settings?.passwordSignInEnabled == false {
      findings.append(
        Finding(code: "password_sign_in_disabled", message: "E-mail/password sign-in is turned off for the whole project."))
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
            message: "The e-mail address is not verified. Firebase still lets the user sign in; an app that checks it will not.",
            fix: "authsh user confirm \(quoted)", blocking: false))
      }
    }
    if user.disabled {
      let until = user.disabledUntil.map { " until \($0)" } ?? ""
      findings.append(
        Finding(code: "disabled", message: "The account is disabled\(until).", fix: "authsh user enable \(quoted)"))
    }
    if let factors = factorFinding(user, quoted: quoted) { findings.append(factors) }
    if let sent = user.recoverySentAt.flatMap(Self.unixTime), now - sent < linkLifetime {
      // `recovery_sent_at` is set by a recovery mail and by `user link recovery` (`generate_link`)
      // alike: the backend does not say which.
      findings.append(
        Finding(
          code: "recovery_pending",
          message: "A recovery link or mail was issued at \(user.recoverySentAt ?? ""); it works until about \(Self.iso(sent + linkLifetime)) (links last \(linkLifetime / 60) minutes on hosted projects). If no mail arrived, hand over a new link.",
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
      (user.confirmed ? nil : user.confirmationSentAt.flatMap(Self.unixTime), "confirm", "A confirmation mail went out"),
      (user.recoverySentAt.flatMap(Self.unixTime), "recovery", "A recovery link or mail was issued"),
    ]
    for window in windows {
      guard let sent = window.sent, now - sent < interval else { continue }
      let kindName = window.kind == "confirm" ? "confirmation" : "recovery"
      findings.append(
        Finding(
          code: "resend_window_closed",
          message: "\(window.what) \(now - sent) s ago; the backend sends the next \(kindName) mail after \(interval - (now - sent)) s more.",
          fix: "authsh user link \(window.kind) \(quoted)", blocking: false))
    }
    let canSignIn = !findings.contains(where: \.blocking)
    if canSignIn {
      findings.append(
        Finding(
          code: "ok",
          message: "The account looks able to sign in with a password. If it still fails, the password is wrong: hand over a recovery link.",
          fix: "authsh user link recovery \(quoted)", blocking: false))
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

  /// Shell-quoted when needed (`'o brien@example.com'`).
  static func quoted(_ text: String) -> String {
    let plain = text.allSatisfy { $0.isLetter || $0.isNumber || "@._+-".contains($0) }
    return plain && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// The local part before `@` (or the text), to look for near-misses.
  static func filterHint(_ email: String) -> String {
    let local = email.split(separator: "@", maxSplits: 1).first.map(String.init) ?? email
    return local.isEmpty ? email : local
  }

  static func unixTime(_ iso: String) -> Int? { UnixTime.parseISO(iso) }

  static func iso(_ unix: Int) -> String { UnixTime.iso(unix) }
}
