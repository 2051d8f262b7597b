import Essentials
import HTTPServerKit
import JSONKit

/// The tables and forms of one account's page: its identities, second factors, actions and audit
/// trail (with the mails and texts to its address and phone).
struct ConsoleAccountSections: ConsolePage {
  let context: ConsoleContext
  let outbox: Outbox

  func identitiesTable(side: ConsoleSide, _ user: JSON) -> String {
    typealias H = ConsoleHTML
    var out = "<div class=\"table-wrap\"><table><caption>Identities</caption><thead><tr>"
    out += "<th scope=\"col\">Provider</th><th scope=\"col\">Id</th><th scope=\"col\">E-mail</th>"
    out += "<th scope=\"col\">\(side == .supabase ? "Last sign-in" : "Name")</th></tr></thead><tbody>"
    let items = user[side == .supabase ? "identities" : "providerUserInfo"]?.array ?? []
    for item in items {
      let texts: [String?] =
        side == .supabase
        ? [item["provider"]?.string, item["id"]?.string, item["identity_data"]?["email"]?.string]
        : [item["providerId"]?.string, item["rawId"]?.string, item["email"]?.string, item["displayName"]?.string]
      var cells = texts.map { H.text($0 ?? "") }
      if side == .supabase { cells.append(ConsoleTime.markup(item["last_sign_in_at"], unit: .iso)) }
      out += "<tr>" + cells.map { "<td>\($0)</td>" }.joined() + "</tr>"
    }
    if items.isEmpty { out += "<tr><td colspan=\"4\">none</td></tr>" }
    return out + "</tbody></table></div>"
  }

  func factorsTable(side: ConsoleSide, _ user: JSON) -> String {
    typealias H = ConsoleHTML
    var out = "<div class=\"table-wrap\"><table><caption>Second factors</caption><thead><tr>"
    out += "<th scope=\"col\">Id</th><th scope=\"col\">Type</th><th scope=\"col\">Name</th>"
    out += "<th scope=\"col\">Status</th><th scope=\"col\">Created</th></tr></thead><tbody>"
    let items = user[side == .supabase ? "factors" : "mfaInfo"]?.array ?? []
    for item in items {
      let texts: [String?] =
        side == .supabase
        ? [item["id"]?.string, item["factor_type"]?.string, item["friendly_name"]?.string, item["status"]?.string]
        : [item["mfaEnrollmentId"]?.string, "totp", item["displayName"]?.string, "enrolled"]
      let created = ConsoleTime.markup(item[side == .supabase ? "created_at" : "enrolledAt"], unit: .iso)
      out += "<tr>" + (texts.map { H.text($0 ?? "") } + [created]).map { "<td>\($0)</td>" }.joined() + "</tr>"
    }
    if items.isEmpty { out += "<tr><td colspan=\"5\">none</td></tr>" }
    return out + "</tbody></table></div>"
  }

  func actionsSection(side: ConsoleSide, id: String, email: String, user: JSON) -> String {
    typealias H = ConsoleHTML
    let base = "/_/accounts/\(side.rawValue)/\(H.component(id))/"
    let scope = tenant.map { [("tenant", $0)] } ?? []
    let token = EmulatorConsole.token
    var out = "<h2>Actions</h2><div id=\"actions\">"
    out += H.button(action: base + "confirm", label: "Confirm e-mail", token: token, fields: scope)
    switch (side, isBlocked(side: side, user)) {
    case (.supabase, true): out += H.button(action: base + "enable", label: "Unban", token: token, fields: scope)
    case (.firebase, true): out += H.button(action: base + "enable", label: "Enable", token: token, fields: scope)
    case (.firebase, false): out += H.button(action: base + "disable", label: "Disable", token: token, fields: scope)
    case (.supabase, false):
      out += "<form method=\"post\" action=\"\(H.attribute(base + "disable"))\" class=\"inline\" id=\"ban\">"
      out +=
        H.tokenField(token) + "<label for=\"ban-duration\">Ban</label><select id=\"ban-duration\" name=\"duration\">"
      for (value, label) in Self.banDurations {
        out += "<option value=\"\(value)\"\(value == "24h" ? " selected" : "")>\(label)</option>"
      }
      out += "</select> <button type=\"submit\">Ban</button></form>"
    }
    out += H.button(action: base + "remove-factors", label: "Remove second factors", token: token, fields: scope)
    if !email.isEmpty {
      out += H.button(action: base + "recovery-link", label: "Make a recovery link", token: token, fields: scope)
    }
    out += "<form method=\"post\" action=\"\(H.attribute(base + "password"))\">" + H.tokenField(token)
    for (name, value) in scope { out += "<input type=\"hidden\" name=\"\(name)\" value=\"\(H.attribute(value))\">" }
    out += "<label for=\"new-password\">New password</label>"
    out += "<input id=\"new-password\" name=\"password\" type=\"password\" autocomplete=\"new-password\" required> "
    out += "<button type=\"submit\">Set password</button></form>"
    let deleteURL = base + "delete" + (tenant.map { "?tenant=\(H.component($0))" } ?? "")
    out += "<p><a class=\"danger\" id=\"delete\" href=\"\(H.attribute(deleteURL))\">Delete this account…</a></p>"
    return out + "</div>"
  }

  /// A ban's choices: GoTrue `ban_duration` values and their words.
  static let banDurations = [
    ("1h", "for an hour"), ("24h", "for a day"), ("168h", "for a week"), ("720h", "for 30 days"),
    ("876000h", "until unbanned (100 years)"),
  ]

  /// Banned now (Supabase `banned_until` ahead) or disabled (Firebase).
  func isBlocked(side: ConsoleSide, _ user: JSON) -> Bool {
    guard side == .supabase else { return user["disabled"]?.bool == true }
    guard let until = user["banned_until"], let ms = ConsoleTime.milliseconds(until, unit: .iso) else { return false }
    return ms > Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
  }

  func auditSection(side: ConsoleSide, id: String, email: String, phone: String) -> String {
    typealias H = ConsoleHTML
    var out = "<h2>Audit trail</h2>"
    if side == .supabase {
      let entries = supabase.state.read { data in
        data.audit.entries.filter { entry in
          entry.payload["actor_id"]?.string == id || entry.payload["traits"]?["user_id"]?.string == id
        }.suffix(100).reversed().map { $0 }
      }
      out += "<div class=\"table-wrap\"><table><caption>Newest first (last 100)</caption><thead><tr>"
      out += "<th scope=\"col\">Time</th><th scope=\"col\">Action</th><th scope=\"col\">By</th>"
      out += "<th scope=\"col\">Details</th></tr></thead><tbody>"
      for entry in entries {
        let traits = entry.payload["traits"].map { $0.compactText } ?? ""
        out += "<tr><td>\(H.time(milliseconds: entry.createdAt / 1000))</td>"
        out += "<td>\(H.text(entry.payload["action"]?.string ?? ""))</td>"
        out += "<td>\(H.text(entry.payload["actor_username"]?.string ?? ""))</td><td>\(H.text(traits))</td></tr>"
      }
      if entries.isEmpty { out += "<tr><td colspan=\"4\">none</td></tr>" }
      out += "</tbody></table></div>"
    } else {
      out += "<p class=\"muted\">Firebase Auth keeps no audit log; the mails below are this account's trail.</p>"
    }
    let mails = messages(email: email, phone: phone)
    out += "<div class=\"table-wrap\"><table id=\"messages\"><caption>Mails to its address and texts to its phone"
    out += "</caption><thead><tr><th scope=\"col\">Time</th><th scope=\"col\">Backend</th><th scope=\"col\">To</th>"
    out += "<th scope=\"col\">Kind</th><th scope=\"col\">Link</th><th scope=\"col\">Code</th></tr></thead><tbody>"
    for mail in mails {
      out +=
        "<tr><td>\(ConsoleInboxPage.mailTime(mail))</td><td>\(H.text(mail.side.rawValue))</td><td>\(H.text(mail.email))</td>"
      out +=
        "<td>\(H.text(mail.kind))</td><td>\(ConsoleInboxPage.mailLink(mail.link))</td><td>\(ConsoleInboxPage.codeCell(mail.code))</td></tr>"
    }
    if mails.isEmpty { out += "<tr><td colspan=\"6\">none</td></tr>" }
    return out + "</tbody></table></div>"
  }

  /// The mails to `email` and the texts to `phone` (any form: `+1 555…`, digits), newest first.
  func messages(email: String, phone: String) -> [OutboxMessage] {
    let digits = Self.phoneDigits(phone)
    guard !email.isEmpty || !digits.isEmpty else { return [] }
    let address = email.lowercased()
    return outbox.messages().filter { message in
      (!address.isEmpty && message.email.lowercased() == address)
        || (!digits.isEmpty && !message.email.contains("@") && Self.phoneDigits(message.email) == digits)
    }.reversed()
  }

  /// The digits of a phone number (`+1 555-0100` → `15550100`).
  static func phoneDigits(_ phone: String) -> String { String(phone.filter { $0.isASCII && $0.isNumber }) }
}
