import Essentials
import HTTPServerKit
import JSONKit

/// The POST actions on one account, each one admin API call (or a few) as the official admin
/// clients make it; then back to the account page with what was done. Also the page that asks
/// before a delete.
struct ConsoleAccountActions: ConsolePage {
  let context: ConsoleContext
  /// For the account page an edit that failed comes back to.
  let outbox: Outbox

  func accountAction(side: ConsoleSide, id: String, action: String) async -> ServerResponse {
    let page = ConsoleAccountsView.accountURL(side: side, id: id, tenant: tenant)
    guard let user = await accountJSON(side: side, id: id) else {
      return Self.problem(404, "No \(side.label) account has the id \(id).", back: "/_/?side=\(side.rawValue)")
    }
    let result: Result<ConsoleNotice, ActionFailure>
    switch action {
    case "confirm":
      result = await change(
        side, id, supabase: ["email_confirm": true], firebase: ["emailVerified": true], .confirmed)
    case "disable":
      let duration = field("duration") ?? "24h"
      guard ConsoleAccountSections.banDurations.contains(where: { $0.0 == duration }) else {
        return Self.problem(400, "Choose one of the ban's durations.", back: page)
      }
      result = await change(
        side, id, supabase: ["ban_duration": .string(duration)], firebase: ["disableUser": true],
        side == .supabase ? .banned : .disabled)
    case "enable":
      result = await change(
        side, id, supabase: ["ban_duration": "none"], firebase: ["disableUser": false],
        side == .supabase ? .unbanned : .enabled)
    case "password":
      guard let password = field("password"), !password.isEmpty else {
        return Self.problem(400, "Type the new password.", back: page)
      }
      result = await change(
        side, id, supabase: ["password": .string(password)], firebase: ["password": .string(password)], .passwordSet)
    case "profile", "json":
      let edit = ConsoleAccountEdit(context: context)
      let edited =
        action == "profile"
        ? await edit.editProfile(side: side, id: id, user: user) : await edit.editJSON(side: side, id: id, user: user)
      switch edited {
      case .success(let notice): result = .success(notice)
      case .failure(let failure) where failure.form.isEmpty:
        return Self.problem(failure.status, failure.message, back: page)
      case .failure(let failure):
        return await ConsoleAccountPage(context: context, outbox: outbox).accountPage(
          side: side, id: id, failure: failure)
      }
    case "remove-factors":
      result = await removeFactors(side: side, id: id, user: user)
    case "revoke-session", "sign-out-everywhere":
      result = await ConsoleSessionsPage(context: context).endSessions(
        side: side, id: id, every: action == "sign-out-everywhere")
    case "recovery-link":
      return await recoveryLink(side: side, email: user["email"]?.string ?? "", back: page)
    case "delete":
      guard field("confirm") == "yes" else { return Self.redirect(page) }
      let answer =
        side == .supabase
        ? await supabaseAdmin("DELETE", "/admin/users/" + ConsoleHTML.component(id))
        : await firebaseAdmin("accounts:delete", tenant: tenant, body: ["localId": .string(id)])
      guard answer.ok else { return Self.problem(answer.status, answer.message, back: page) }
      var list = "/_/?side=\(side.rawValue)"
      if let tenant { list += "&tenant=" + ConsoleHTML.component(tenant) }
      return Self.redirect(list + "&done=" + ConsoleNotice.deleted.rawValue)
    default:
      return Self.problem(404, "No such action: \(action).", back: page)
    }
    switch result {
    case .success(let done):
      return Self.redirect(page + (tenant == nil ? "?" : "&") + "done=" + done.rawValue)
    case .failure(let failure):
      return Self.problem(failure.status, failure.message, back: page)
    }
  }

  private func removeFactors(
    side: ConsoleSide, id: String, user: JSON
  ) async -> Result<ConsoleNotice, ActionFailure> {
    if side == .firebase {
      return await change(side, id, supabase: [:], firebase: ["mfa": ["enrollments": []]], .factorsRemoved)
    }
    let factors = (user["factors"]?.array ?? []).compactMap { $0["id"]?.string }
    for factor in factors {
      let path = "/admin/users/\(ConsoleHTML.component(id))/factors/\(ConsoleHTML.component(factor))"
      let answer = await supabaseAdmin("DELETE", path)
      if !answer.ok { return .failure(ActionFailure(status: answer.status, message: answer.message)) }
    }
    return .success(factors.isEmpty ? .noFactors : .factorsRemoved)
  }

  /// Supabase `generate_link` type recovery, Firebase `sendOobCode` PASSWORD_RESET with
  /// `returnOobLink`: the link is shown, not mailed.
  private func recoveryLink(side: ConsoleSide, email: String, back: String) async -> ServerResponse {
    let answer =
      side == .supabase
      ? await supabaseAdmin("POST", "/admin/generate_link", body: ["type": "recovery", "email": .string(email)])
      : await firebaseAdmin(
        "accounts:sendOobCode", tenant: tenant,
        body: ["requestType": "PASSWORD_RESET", "email": .string(email), "returnOobLink": true])
    let link = answer.json?["action_link"]?.string ?? answer.json?["oobLink"]?.string
    guard answer.ok, let link else { return Self.problem(answer.status, answer.message, back: back) }
    typealias H = ConsoleHTML
    var body = "<p>A recovery link for \(H.text(email)) (not mailed; it works once):</p>"
    body +=
      "<p id=\"recovery-link\">\(ConsoleInboxPage.mailLink(link))</p><p>\(H.link(back, "Back to the account"))</p>"
    return Self.html(200, H.page(title: "Recovery link", section: .accounts, body: body))
  }

  /// `GET …/delete`: asks first; the POST carries `confirm=yes`.
  func deleteConfirmationPage(side: ConsoleSide, id: String) async -> ServerResponse {
    typealias H = ConsoleHTML
    let page = ConsoleAccountsView.accountURL(side: side, id: id, tenant: tenant)
    guard let user = await accountJSON(side: side, id: id) else {
      return Self.problem(404, "No \(side.label) account has the id \(id).", back: "/_/?side=\(side.rawValue)")
    }
    let name = user["email"]?.string ?? id
    var fields = [("confirm", "yes")]
    if let tenant { fields.append(("tenant", tenant)) }
    var body = "<p class=\"warning\">Delete the \(side.label) account \(H.text(name)) (\(H.text(id)))? "
    body += "Its sessions go with it; this cannot be undone.</p>"
    body += H.button(
      action: "/_/accounts/\(side.rawValue)/\(H.component(id))/delete", label: "Yes, delete it",
      token: EmulatorConsole.token,
      fields: fields, danger: true)
    body += " " + H.link(page, "No, keep it")
    return Self.html(200, H.page(title: "Delete \(name)?", section: .accounts, body: body))
  }
}
