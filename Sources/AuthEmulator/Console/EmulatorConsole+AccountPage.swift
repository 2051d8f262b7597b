import Essentials
import HTTPServerKit
import JSONKit

/// `/_/accounts/SIDE/ID`: everything the admin API shows about one account, why it may fail to
/// sign in, its audit trail and mails, and the actions.
extension EmulatorConsole {
  func accountJSON(side: ConsoleSide, id: String) async -> JSON? {
    switch side {
    case .supabase:
      let answer = await supabaseAdmin("GET", "/admin/users/" + ConsoleHTML.component(id))
      return answer.ok ? answer.json : nil
    case .firebase:
      let answer = await firebaseAdmin("accounts:lookup", tenant: tenant, body: ["localId": [.string(id)]])
      return answer.json?["users"]?[0]
    }
  }

  func accountPage(side: ConsoleSide, id: String) async -> ServerResponse {
    guard let user = await accountJSON(side: side, id: id) else {
      return Self.problem(404, "No \(side.label) account has the id \(id).", back: "/_/?side=\(side.rawValue)")
    }
    typealias H = ConsoleHTML
    let email = user["email"]?.string ?? ""
    var body = ""
    if let done = request.query("done") { body += "<p class=\"notice\" role=\"status\">\(H.text(done))</p>" }
    body += H.facts(side == .supabase ? supabaseFacts(user) : firebaseFacts(user), caption: "Account")
    body += "<h2>Can it sign in?</h2><ul id=\"signin-facts\">"
    for line in signInFacts(side: side, user) { body += "<li>\(H.text(line))</li>" }
    body += "</ul>"
    body += identitiesTable(side: side, user) + factorsTable(side: side, user)
    body += "<h2>Metadata and claims</h2>"
    for key in side == .supabase ? ["user_metadata", "app_metadata"] : ["customAttributes"] {
      var value = user[key] ?? .null
      if case .string(let text) = value, let parsed = try? JSON.parse(text) { value = parsed }
      body += "<h3>\(H.text(key))</h3><pre>\(H.text(value.prettyText))</pre>"
    }
    body += actionsSection(side: side, id: id, email: email)
    body += auditSection(side: side, id: id, email: email)
    body += "<details><summary>The admin API's answer</summary><pre>\(H.text(user.prettyText))</pre></details>"
    let title = email.isEmpty ? "Account \(id)" : email
    return Self.html(200, H.page(title: title, section: .accounts, body: body))
  }

  private func supabaseFacts(_ user: JSON) -> [(String, String)] {
    let keys = [
      "id", "email", "phone", "role", "aud", "created_at", "updated_at", "last_sign_in_at", "email_confirmed_at",
      "confirmed_at", "banned_until", "is_anonymous", "is_sso_user", "deleted_at",
    ]
    return keys.compactMap { key in user[key].map { (key, ConsoleHTML.text(Self.plain($0))) } }
  }

  private func firebaseFacts(_ user: JSON) -> [(String, String)] {
    var rows: [(String, String)] = tenant.map { [("tenant", ConsoleHTML.text($0))] } ?? []
    let keys = [
      "localId", "email", "emailVerified", "displayName", "phoneNumber", "photoUrl", "disabled", "createdAt",
      "lastLoginAt", "lastRefreshAt", "passwordUpdatedAt", "validSince",
    ]
    for key in keys {
      guard let value = user[key] else { continue }
      var text = Self.plain(value)
      if ["createdAt", "lastLoginAt", "passwordUpdatedAt"].contains(key), let ms = Int64(text) {
        text += " (" + ConsoleHTML.time(milliseconds: ms) + ")"
      }
      rows.append((key, ConsoleHTML.text(text)))
    }
    return rows
  }

  /// A scalar as text (strings without quotes).
  static func plain(_ value: JSON) -> String {
    if case .string(let text) = value { return text }
    if case .null = value { return "null" }
    return value.compactText
  }

  /// The facts `authsh diagnose` starts from, as the emulator knows them.
  func signInFacts(side: ConsoleSide, _ user: JSON) -> [String] {
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
      if let until = user["banned_until"]?.string {
        lines.append("Banned until \(until): every sign-in and refresh answers user_banned.")
      }
      let providers = (user["identities"]?.array ?? []).compactMap { $0["provider"]?.string }
      if !providers.contains("email") {
        lines.append("No e-mail identity: no password sign-in (providers: \(providers.joined(separator: ", "))).")
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
    let last = user[side == .supabase ? "last_sign_in_at" : "lastLoginAt"].map(Self.plain) ?? "never"
    lines.append("Last sign-in: \(last == "null" ? "never" : last).")
    if lines.count == 1 { lines.insert("Nothing stops a password sign-in.", at: 0) }
    return lines
  }
}
