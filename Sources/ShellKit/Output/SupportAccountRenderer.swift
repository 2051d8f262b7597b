import AuthCore
import JSONKit

/// The ways into an account (`user show`) and its trail (`user history`), as text.
enum SupportAccountRenderer {
  /// The sign-in methods, what is special about the account, its identities and second factors.
  static func wayInRows(_ user: AdminUser) -> [(String, String)] {
    var rows: [(String, String)] = []
    let methods = user.methods.joined(separator: ", ")
    if user.hasPassword {
      rows.append(("sign-in methods", methods))
    } else {
      rows.append(("sign-in methods", (methods.isEmpty ? "" : methods + " — ") + "no password sign-in"))
    }
    if let invited = user.invitedAt {
      rows.append(("invited", invited + (user.invitePending ? " (not accepted yet)" : "")))
    }
    if user.sso { rows.append(("sso", "yes: managed by the organisation's identity provider")) }
    if user.anonymous { rows.append(("anonymous", "yes: no e-mail, no password")) }
    for identity in user.identities {
      var text = identity.provider
      if let email = identity.email, email != user.email || identity.provider != "password" { text += " " + email }
      if let subject = identity.subject, subject != user.id, subject != identity.email { text += " (\(subject))" }
      if let last = identity.lastSignInAt { text += ", last used \(last)" }
      rows.append(("identity", text))
    }
    if user.factors.isEmpty {
      rows.append(("second factor", "none"))
    } else {
      for factor in user.factors {
        var text = factor.kind.rawValue + (factor.name.map { " \"\($0)\"" } ?? "") + " \(factor.id)"
        text += factor.status == .verified ? "" : " (unverified)"
        if let created = factor.createdAt { text += ", since \(created)" }
        rows.append(("second factor", text))
      }
    }
    return rows
  }

  static func history(_ events: [AccountEvent], width: Int? = nil) -> [String] {
    guard !events.isEmpty else { return [] }
    let rows = events.map { event in
      [event.time, event.action, event.actor ?? "—", event.ipAddress ?? "—"].map(TerminalText.escape)
    }
    return SupportRenderer.columns([["TIME", "ACTION", "BY", "IP"]] + rows, width: width)
  }
}
