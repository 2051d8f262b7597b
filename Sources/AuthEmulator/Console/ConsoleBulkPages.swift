import Essentials
import HTTPServerKit
import JSONKit

/// Many at once: the accounts ticked in the list, then delete, disable (ban), enable (unban) or
/// confirm them. `GET /_/bulk` lists the selection and asks; the POST does each account through the
/// same admin calls as the one-account actions, and reports the ids it could not change.
struct ConsoleBulkPages: ConsolePage {
  let context: ConsoleContext

  enum BulkAction: String, CaseIterable, Sendable {
    case confirm, disable, enable, delete

    func verb(_ side: ConsoleSide) -> String {
      switch self {
      case .confirm: return "Confirm the e-mail of"
      case .disable: return side == .supabase ? "Ban" : "Disable"
      case .enable: return side == .supabase ? "Unban" : "Enable"
      case .delete: return "Delete"
      }
    }

    /// The button under the list: "Ban…".
    func label(_ side: ConsoleSide) -> String {
      self == .confirm ? "Confirm e-mail…" : verb(side) + "…"
    }

    func notice(_ side: ConsoleSide) -> ConsoleNotice {
      switch self {
      case .confirm: return .selectionConfirmed
      case .disable: return side == .supabase ? .selectionBanned : .selectionDisabled
      case .enable: return side == .supabase ? .selectionUnbanned : .selectionEnabled
      case .delete: return .selectionDeleted
      }
    }
  }

  /// At most this many accounts in one selection.
  static let bulkLimit = 1000

  /// The selection of a GET or POST: its side, action and distinct ids, or the page refusing it.
  private func bulkSelection() -> Result<(ConsoleSide, BulkAction, [String]), ActionFailure> {
    guard let side = parameter("side").flatMap(ConsoleSide.init(rawValue:)) else {
      return .failure(ActionFailure(status: 400, message: "Choose a backend."))
    }
    guard let action = parameter("action").flatMap(BulkAction.init(rawValue:)) else {
      return .failure(ActionFailure(status: 400, message: "Choose what to do with the selected accounts."))
    }
    let items = request.method == "POST" ? form : request.queryItems
    var ids: [String] = []
    for item in items where item.name == "id" && !item.value.isEmpty && !ids.contains(item.value) {
      ids.append(item.value)
    }
    guard !ids.isEmpty else {
      return .failure(ActionFailure(status: 400, message: "Select at least one account first."))
    }
    guard ids.count <= Self.bulkLimit else {
      return .failure(ActionFailure(status: 400, message: "Select at most \(Self.bulkLimit) accounts at once."))
    }
    return .success((side, action, ids))
  }

  /// A selection that cannot be acted on, said on a page that goes back to the list.
  private func bulkProblem(_ failure: ActionFailure) -> ServerResponse {
    Self.problem(
      failure.status, failure.message, back: bulkListURL(parameter("side").flatMap(ConsoleSide.init(rawValue:))))
  }

  /// The list a bulk page goes back to.
  private func bulkListURL(_ side: ConsoleSide?) -> String {
    var list = "/_/?side=\((side ?? .supabase).rawValue)"
    if side == .firebase, let tenant { list += "&tenant=" + ConsoleHTML.component(tenant) }
    return list
  }

  /// `GET /_/bulk?side=…&action=…&id=…&id=…`: the selected accounts and one button that does it.
  func bulkConfirmationPage() async -> ServerResponse {
    typealias H = ConsoleHTML
    let (side, action, ids): (ConsoleSide, BulkAction, [String])
    switch bulkSelection() {
    case .success(let selection): (side, action, ids) = selection
    case .failure(let failure): return bulkProblem(failure)
    }
    let noun = ids.count == 1 ? "account" : "accounts"
    var body = "<p class=\"warning\">\(action.verb(side)) these \(ids.count) \(side.label) \(noun)"
    body += tenant.map { " of tenant \(H.text($0))" } ?? ""
    body += action == .delete ? "? Their sessions go with them; this cannot be undone.</p>" : "?</p>"
    body += "<div class=\"table-wrap\"><table id=\"selection\"><caption>Selected accounts</caption><thead><tr>"
    body += "<th scope=\"col\">E-mail</th><th scope=\"col\">Id</th></tr></thead><tbody>"
    for id in ids {
      let user = await accountJSON(side: side, id: id)
      let email = user.map { $0["email"]?.string ?? "" }
      let label = email.map { $0.isEmpty ? "(no e-mail)" : $0 } ?? "(no such account)"
      body += "<tr><td>\(H.text(label))</td><td>\(H.id(id))</td></tr>"
    }
    body += "</tbody></table></div>"
    body += "<form method=\"post\" action=\"/_/bulk\" id=\"bulk-confirm\">" + H.tokenField(EmulatorConsole.token)
    var fields = [("side", side.rawValue), ("action", action.rawValue), ("confirm", "yes")]
    if let tenant { fields.append(("tenant", tenant)) }
    for (name, value) in fields + ids.map({ ("id", $0) }) {
      body += "<input type=\"hidden\" name=\"\(H.attribute(name))\" value=\"\(H.attribute(value))\">"
    }
    if side == .supabase, action == .disable {
      body += "<label for=\"bulk-duration\">Ban</label><select id=\"bulk-duration\" name=\"duration\">"
      for (value, label) in ConsoleAccountSections.banDurations {
        body += "<option value=\"\(value)\"\(value == "24h" ? " selected" : "")>\(label)</option>"
      }
      body += "</select> "
    }
    let danger = action == .delete ? " class=\"danger\"" : ""
    let verb = action == .confirm ? "confirm" : action.verb(side).lowercased()
    body += "<button type=\"submit\"\(danger)>Yes, \(verb) \(ids.count) \(noun)</button> "
    body += H.link(bulkListURL(side), "No, back to the list") + "</form>"
    let title = "\(action.verb(side)) \(ids.count) \(noun)?"
    return Self.html(200, H.page(title: title, section: .accounts, body: body))
  }

  /// `POST /_/bulk`: each selected account in turn; unknown ids and refusals are listed, the
  /// others still done.
  func bulkAction() async -> ServerResponse {
    let (side, action, ids): (ConsoleSide, BulkAction, [String])
    switch bulkSelection() {
    case .success(let selection): (side, action, ids) = selection
    case .failure(let failure): return bulkProblem(failure)
    }
    let list = bulkListURL(side)
    guard field("confirm") == "yes" else { return Self.redirect(list) }
    let duration = field("duration") ?? "24h"
    guard
      side == .firebase || action != .disable
        || ConsoleAccountSections.banDurations.contains(where: { $0.0 == duration })
    else {
      return Self.problem(400, "Choose one of the ban's durations.", back: list)
    }
    var failures: [(id: String, failure: ActionFailure)] = []
    for id in ids {
      let result: Result<ConsoleNotice, ActionFailure>
      switch action {
      case .confirm:
        result = await change(
          side, id, supabase: ["email_confirm": true], firebase: ["emailVerified": true], .confirmed)
      case .disable:
        result = await change(
          side, id, supabase: ["ban_duration": .string(duration)], firebase: ["disableUser": true], .disabled)
      case .enable:
        result = await change(side, id, supabase: ["ban_duration": "none"], firebase: ["disableUser": false], .enabled)
      case .delete:
        result = await deleteOne(side, id)
      }
      if case .failure(let failure) = result { failures.append((id, failure)) }
    }
    guard !failures.isEmpty else { return Self.redirect(list + "&done=" + action.notice(side).rawValue) }
    return bulkReport(side: side, action: action, total: ids.count, failures: failures, back: list)
  }

  /// `DELETE /admin/users/ID` (Supabase) or `accounts:delete` (Firebase), as the one-account delete.
  func deleteOne(_ side: ConsoleSide, _ id: String) async -> Result<ConsoleNotice, ActionFailure> {
    let answer =
      side == .supabase
      ? await supabaseAdmin("DELETE", "/admin/users/" + ConsoleHTML.component(id))
      : await firebaseAdmin("accounts:delete", tenant: tenant, body: ["localId": .string(id)])
    return answer.ok ? .success(.deleted) : .failure(ActionFailure(status: answer.status, message: answer.message))
  }

  /// What was done and, one by one, what was not (the backend's own message).
  private func bulkReport(
    side: ConsoleSide, action: BulkAction, total: Int, failures: [(id: String, failure: ActionFailure)],
    back: String
  ) -> ServerResponse {
    typealias H = ConsoleHTML
    let done = total - failures.count
    var body = "<p class=\"warning\" role=\"alert\">\(action.verb(side)): done for \(done) of \(total) "
    body += "\(total == 1 ? "account" : "accounts"); not for these:</p>"
    body += "<div class=\"table-wrap\"><table id=\"bulk-failures\"><caption>Not done</caption><thead><tr>"
    body += "<th scope=\"col\">Id</th><th scope=\"col\">Why</th></tr></thead><tbody>"
    for (id, failure) in failures {
      body += "<tr><td>\(H.id(id))</td><td>\(H.text(failure.message))</td></tr>"
    }
    body += "</tbody></table></div><p>\(H.link(back, "Back to the list"))</p>"
    let status = done == 0 ? failures[0].failure.status : 200
    return Self.html(status, H.page(title: "Done for \(done) of \(total)", section: .accounts, body: body))
  }
}
