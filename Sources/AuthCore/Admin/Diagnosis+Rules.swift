extension Diagnosis {
  /// How long a mailed link stays usable when the backend does not say (GoTrue's default
  /// `MAILER_OTP_EXP`, Firebase's reset links): one hour.
  public static let linkLifetime = 3600

  /// "Why can't this person sign in?" from the admin view alone, in the order support reads it: no
  /// account; no password sign-in method; e-mail unconfirmed where that blocks sign-in; disabled;
  /// a recovery mail pending; the resend window still closed; then, when nothing blocks, `ok`.
  public static func evaluate(
    email: String, user: AdminUser?, provider: ProviderKind, settings: ProjectSettings?, now: Int
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
    if !user.methods.isEmpty, !user.hasPassword {
      findings.append(
        Finding(
          code: "no_password_method",
          message: "The account has no password: it signs in with \(user.methods.joined(separator: ", ")), so a password sign-in fails.",
          fix: "authsh user set-password \(quoted)"))
    }
    if !user.confirmed {
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
    if let sent = user.recoverySentAt.flatMap(Self.unixTime), now - sent < linkLifetime {
      findings.append(
        Finding(
          code: "recovery_pending",
          message: "A password-recovery mail went out at \(user.recoverySentAt ?? ""); its link works until about \(Self.iso(sent + linkLifetime)). If it did not arrive, hand over a link.",
          fix: "authsh user link recovery \(quoted)", blocking: false))
    } else if user.pendingMail?.kind.contains("recover") == true || user.pendingMail?.kind == "PASSWORD_RESET" {
      findings.append(
        Finding(
          code: "recovery_pending", message: "A password-recovery mail is waiting in the emulator's outbox.",
          fix: "authsh inbox \(quoted)", blocking: false))
    }
    let interval = settings?.mailInterval ?? 60
    let lastMail = [user.recoverySentAt, user.confirmationSentAt].compactMap { $0.flatMap(Self.unixTime) }.max()
    if let lastMail, now - lastMail < interval {
      findings.append(
        Finding(
          code: "resend_window_closed",
          message: "A mail went out \(now - lastMail) s ago; the backend sends the next one after \(interval - (now - lastMail)) s more.",
          fix: "authsh user link \(user.confirmed ? "recovery" : "confirm") \(quoted)", blocking: false))
    }
    let canSignIn = !findings.contains(where: \.blocking)
    if canSignIn {
      findings.append(
        Finding(
          code: "ok",
          message: "The account looks able to sign in with a password. If it still fails, the password is wrong: hand over a recovery link.",
          fix: "authsh user link recovery \(quoted)", blocking: false))
    }
    return Diagnosis(email: user.email, findings: findings, canSignIn: canSignIn)
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
