import AuthCore
import Essentials
import HostedLimits
import JSONKit

/// The calls that change an account, and the project settings.
extension SupabaseAdminProvider {
  /// `ban_duration` for a ban with no end: 100 years (the longest a Go duration can say is ~292).
  static let indefiniteBan = "876000h"
  static let longestBanSeconds = 876_000 * 3600

  package func link(_ kind: AdminLinkKind, for user: AdminUser) async throws -> AdminLink {
    // `signup` for an existing, unconfirmed account issues a new confirmation token without a
    // password (GoTrue wants one only to create the account); for a confirmed one it answers 422
    // `email_exists`. `recovery` works for any account.
    if kind == .confirm, user.confirmed { throw Self.alreadyConfirmed(user, what: "a confirmation link") }
    // An invite for an account that has accepted one (or signed up) is refused: 422 `email_exists`.
    if kind == .invite, user.confirmed { throw Self.alreadyConfirmed(user, what: "an invitation") }
    let type: String
    switch kind {
    case .recovery: type = "recovery"
    case .confirm: type = "signup"
    case .invite: type = "invite"
    }
    let json: JSON
    let response: HTTPResponse
    do {
      (json, response) = try await call(
        "POST", "/admin/generate_link", body: ["type": .string(type), "email": .string(user.email)])
    } catch let error as AuthError where kind != .recovery && error.providerCode == "email_exists" {
      throw Self.alreadyConfirmed(user, what: kind == .invite ? "an invitation" : "a confirmation link")
    }
    let url = try WireReader(json: json, response: response).string("action_link")
    let code = json["email_otp"]?.string.flatMap { $0.isEmpty ? nil : $0 }
    return AdminLink(kind: kind, email: user.email, url: url, code: code)
  }

  package func confirmEmail(_ user: AdminUser) async throws -> AdminUser {
    try await update(user, ["email_confirm": true])
  }

  package func resendConfirmation(_ user: AdminUser) async throws {
    // For a confirmed address GoTrue answers 200 and sends nothing: say so instead.
    if user.confirmed { throw Self.alreadyConfirmed(user, what: "another confirmation mail") }
    // The public `/resend` (what the app's "send again" button calls), so the project's resend
    // limit applies: 429 `over_email_send_rate_limit` within the mail interval. Sent with the admin
    // key: GoTrue's `verifyCaptcha` lets admin credentials through, so a project with CAPTCHA
    // protection on does not answer `captcha_failed` (the anon key would need a CAPTCHA token).
    _ = try await call("POST", "/resend", body: ["type": "signup", "email": .string(user.email)])
  }

  package func disable(_ user: AdminUser, forSeconds seconds: Int?) async throws -> AdminUser {
    let duration: String
    if let seconds {
      // `0s` would lift the ban instead of setting one.
      guard seconds > 0 else {
        throw AuthError(.usage, message: "--until takes a duration longer than zero, such as 30m or 24h.")
      }
      duration = seconds >= Self.longestBanSeconds ? Self.indefiniteBan : "\(seconds)s"
    } else {
      duration = Self.indefiniteBan
    }
    return try await update(user, ["ban_duration": .string(duration)])
  }

  package func enable(_ user: AdminUser) async throws -> AdminUser {
    try await update(user, ["ban_duration": "none"])
  }

  /// GoTrue also ends every session of the account (its refresh tokens are revoked) and voids
  /// pending recovery and confirmation links.
  package func setPassword(_ user: AdminUser, to password: String) async throws -> AdminUser {
    try SupabaseProvider.checkBcryptLimit(password)
    return try await update(user, ["password": .string(password)])
  }

  package func createUser(email: String, password: String?, confirmed: Bool, name: String?) async throws -> AdminUser {
    let address = email.trimmingWhitespace
    guard !address.isEmpty else { throw AuthError(.usage, message: "Which address? `user create EMAIL`.") }
    var body = JSONObject([("email", .string(address)), ("email_confirm", .bool(confirmed))])
    // Without a password GoTrue sets a random one: the person signs in after a recovery link.
    if let password {
      try SupabaseProvider.checkBcryptLimit(password)
      body["password"] = .string(password)
    }
    if let name, !name.isEmpty {
      // As `signup --name` stores it.
      body["user_metadata"] = [
        "full_name": .string(name), "first_name": .string(name.split(separator: " ").first.map(String.init) ?? name),
      ]
    }
    let (json, response) = try await call("POST", "/admin/users", body: .object(body))
    return try SupabaseAdminDecoding.user(json, response: response, now: clock.now())
  }

  package func delete(_ user: AdminUser, soft: Bool) async throws {
    _ = try await call("DELETE", "/admin/users/" + user.id, body: ["should_soft_delete": .bool(soft)])
  }

  package func signOut(_ user: AdminUser) async throws {
    if let refusal = unsupported(.signOut, for: user) { throw refusal }
  }

  package func unsupported(_ change: AdminChange, for user: AdminUser) -> AuthError? {
    guard change == .signOut else { return nil }
    // GoTrue's admin API has no "end this user's sessions": `/logout` acts on the caller's own
    // session (it needs the user's access token).
    return AuthError(
      .notSupported,
      message: "Supabase's admin API cannot end another user's sessions.",
      hint: "`authsh user set-password \(user.email)` ends every session (Supabase deletes the account's sessions "
        + "and refresh tokens when an admin sets the password). `authsh user disable \(user.email) --until 1h` "
        + "refuses refreshes and sign-ins while the ban lasts but keeps the sessions: a refresh token the app kept "
        + "works again once the ban ends. Either way, access tokens already issued stay valid for the project's "
        + "data API until they expire (1 hour by default).")
  }

  package func settings() async throws -> ProjectSettings {
    let (json, _) = try await call("GET", "/settings", as: .anon)
    let autoconfirm = json["mailer_autoconfirm"]?.bool
    // GoTrue's SMTP_MAX_FREQUENCY defaults to 60 s; `/settings` does not tell the value in use.
    return ProjectSettings(
      requiresEmailConfirmation: autoconfirm.map { !$0 }, passwordSignInEnabled: json["external"]?["email"]?.bool,
      mailInterval: ProductionLimits.Supabase.mailInterval)
  }

  /// `PUT /admin/users/{id}` with `body`; answers the account as it is now.
  func update(_ user: AdminUser, _ body: JSON) async throws -> AdminUser {
    let (json, response) = try await call("PUT", "/admin/users/" + user.id, body: body)
    var updated = try SupabaseAdminDecoding.user(json, response: response, now: clock.now())
    updated.pendingMail = await pendingMail(to: updated.email)
    return updated
  }

  static func alreadyConfirmed(_ user: AdminUser, what: String) -> AuthError {
    AuthError(
      .invalidRequest, message: "The e-mail \(user.email) is already confirmed: \(what) is not needed.",
      hint: "For a password problem, `authsh user link recovery \(user.email)` makes a recovery link.")
  }
}
