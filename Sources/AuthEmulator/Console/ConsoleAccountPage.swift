import Essentials
import HTTPServerKit
import JSONKit

/// `/_/accounts/SIDE/ID`: everything the admin API shows about one account, why it may fail to
/// sign in, its audit trail and mails, and the actions. Its parts are `ConsoleAccountSections`,
/// `ConsoleSessionsPage` and `ConsoleAccountEdit`; its POSTs are `ConsoleAccountActions`.
struct ConsoleAccountPage: ConsolePage {
  let context: ConsoleContext
  /// The mails and texts of the account's audit trail.
  let outbox: Outbox

  private var sections: ConsoleAccountSections { ConsoleAccountSections(context: context, outbox: outbox) }

  func accountPage(side: ConsoleSide, id: String, failure: EditFailure? = nil) async -> ServerResponse {
    guard let user = await accountJSON(side: side, id: id) else {
      return Self.problem(404, "No \(side.label) account has the id \(id).", back: "/_/?side=\(side.rawValue)")
    }
    typealias H = ConsoleHTML
    let state = Self.accountState(side: side, user)
    // A soft-deleted account's e-mail is a hash GoTrue put there: not an address.
    let email = state == .deleted ? "" : user["email"]?.string ?? ""
    var body = ""
    body += ConsoleNotice.markup(request.query("done"))
    body += H.facts(side == .supabase ? supabaseFacts(user, state: state) : firebaseFacts(user), caption: "Account")
    body += "<h2>Can it sign in?</h2><ul id=\"signin-facts\">"
    for line in signInFacts(side: side, user) { body += "<li>\(line)</li>" }
    body += "</ul>"
    if state != .deleted {
      body += sections.identitiesTable(side: side, user) + sections.factorsTable(side: side, user)
      body += ConsoleSessionsPage(context: context).sessionsSection(side: side, id: id, user: user)
    }
    if state != .deleted {
      body += ConsoleAccountEdit(context: context).editSection(side: side, id: id, user: user, failure: failure)
    }
    body += sections.actionsSection(side: side, id: id, email: email, user: user)
    let phone = state == .deleted ? "" : user[side == .supabase ? "phone" : "phoneNumber"]?.string ?? ""
    body += sections.auditSection(side: side, id: id, email: email, phone: phone)
    body += "<details><summary>The admin API's answer</summary><pre>\(H.text(user.prettyText))</pre></details>"
    let title =
      switch state {
      case .deleted: "Deleted account \(id)"
      case .anonymous: "Anonymous account \(id)"
      case .live: email.isEmpty ? "Account \(id)" : email
      }
    let place = tenant.map { "\(side.label) account of tenant \($0)" } ?? "\(side.label) account"
    return Self.html(
      failure?.status ?? 200, H.page(title: "\(title) · \(place)", section: .accounts, body: body, heading: title))
  }

  /// What an account is, before what it has: a soft-deleted or anonymous account is named so.
  enum AccountState: Sendable { case live, deleted, anonymous }

  static func accountState(side: ConsoleSide, _ user: JSON) -> AccountState {
    switch side {
    case .supabase:
      if let deleted = user["deleted_at"], deleted != .null { return .deleted }
      return user["is_anonymous"]?.bool == true ? .anonymous : .live
    case .firebase:
      // Firebase's anonymous account: no e-mail, phone, password or provider.
      let none = { (key: String) in (user[key]?.string ?? "").isEmpty }
      let providers = user["providerUserInfo"]?.array ?? []
      return none("email") && none("phoneNumber") && none("passwordHash") && providers.isEmpty ? .anonymous : .live
    }
  }

  private func supabaseFacts(_ user: JSON, state: AccountState) -> [(String, String)] {
    // A soft delete replaced the e-mail, the phone and the pending e-mail with hashes.
    let scrambled: Set<String> = state == .deleted ? ["email", "phone", "new_email"] : []
    let keys = [
      "id", "email", "phone", "role", "aud", "created_at", "updated_at", "last_sign_in_at", "email_confirmed_at",
      "confirmed_at", "banned_until", "is_anonymous", "is_sso_user", "deleted_at",
    ].filter { !scrambled.contains($0) }
    let times: Set<String> = [
      "created_at", "updated_at", "last_sign_in_at", "email_confirmed_at", "confirmed_at", "banned_until", "deleted_at",
    ]
    return keys.compactMap { key in
      user[key].map { value in
        if key == "id" { return (key, ConsoleHTML.id(Self.plain(value))) }
        return (key, times.contains(key) ? ConsoleTime.markup(value, unit: .iso) : ConsoleHTML.text(Self.plain(value)))
      }
    }
  }

  private func firebaseFacts(_ user: JSON) -> [(String, String)] {
    var rows: [(String, String)] = tenant.map { [("tenant", ConsoleHTML.text($0))] } ?? []
    let keys = [
      "localId", "email", "emailVerified", "displayName", "phoneNumber", "photoUrl", "disabled", "createdAt",
      "lastLoginAt", "lastRefreshAt", "passwordUpdatedAt", "validSince",
    ]
    let times: [String: ConsoleTime.Unit] = [
      "createdAt": .milliseconds, "lastLoginAt": .milliseconds, "passwordUpdatedAt": .milliseconds,
      "validSince": .seconds, "lastRefreshAt": .iso,
    ]
    for key in keys {
      guard let value = user[key] else { continue }
      var cell = times[key].map { ConsoleTime.markup(value, unit: $0) } ?? ConsoleHTML.text(Self.plain(value))
      if key == "localId" { cell = ConsoleHTML.id(Self.plain(value)) }
      rows.append((key, cell))
    }
    return rows
  }

  /// A scalar as text (strings without quotes).
  static func plain(_ value: JSON) -> String {
    if case .string(let text) = value { return text }
    if case .null = value { return "null" }
    return value.compactText
  }

  /// The facts `authsh diagnose` starts from, as the emulator knows them (markup: text escaped,
  /// times as `<time>` elements).
  func signInFacts(side: ConsoleSide, _ user: JSON) -> [String] {
    switch Self.accountState(side: side, user) {
    case .deleted:
      let when = ConsoleTime.markup(user["deleted_at"], unit: .iso)
      return [
        "Deleted on \(when) (soft delete): no sign-in works, every password answers invalid_credentials; "
          + "the address is free for a new sign-up."
      ]
    case .anonymous:
      return [
        "Anonymous account: no e-mail, no password. Only the session of the device that made it signs in; the app can link an e-mail address while it is signed in."
      ]
    case .live:
      return liveSignInFacts(side: side, user)
    }
  }

  private func liveSignInFacts(side: ConsoleSide, _ user: JSON) -> [String] {
    var lines: [String] = []
    switch side {
    case .supabase:
      let confirmed = user["email_confirmed_at"].map { $0 != .null } ?? false
      if !confirmed {
        lines.append(
          supabase.confirmEmail
            ? "E-mail not confirmed: a password sign-in answers email_not_confirmed until it is."
            : "E-mail not confirmed (confirmation is off, so password sign-in still works).")
      }
      if let until = user["banned_until"], until != .null {
        let time = ConsoleTime.markup(until, unit: .iso)
        lines.append("Banned until \(time): every sign-in and refresh answers user_banned.")
      }
      let providers = (user["identities"]?.array ?? []).compactMap { $0["provider"]?.string }
      if !providers.contains("email") {
        let names = ConsoleHTML.text(providers.joined(separator: ", "))
        lines.append("No e-mail identity: no password sign-in (providers: \(names)).")
      }
      let factors = (user["factors"]?.array ?? []).filter { $0["status"]?.string == "verified" }
      if !factors.isEmpty { lines.append("\(factors.count) verified factor(s): a session needs aal2 (a TOTP code).") }
    case .firebase:
      if user["disabled"]?.bool == true { lines.append("Disabled: every sign-in answers USER_DISABLED.") }
      if user["passwordHash"] == nil { lines.append("No password: no password sign-in.") }
      if user["emailVerified"]?.bool != true { lines.append("E-mail not verified (sign-in still works).") }
      let factors = user["mfaInfo"]?.array?.count ?? 0
      if factors > 0 { lines.append("\(factors) second factor(s): a password sign-in asks for a TOTP code.") }
    }
    let last =
      side == .supabase
      ? ConsoleTime.markup(user["last_sign_in_at"], unit: .iso)
      : ConsoleTime.markup(user["lastLoginAt"], unit: .milliseconds)
    lines.append("Last sign-in: \(last).")
    if lines.count == 1 { lines.insert("Nothing stops a password sign-in.", at: 0) }
    return lines
  }
}
