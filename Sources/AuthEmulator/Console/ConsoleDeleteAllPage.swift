import Essentials
import HTTPServerKit
import JSONKit

/// "Delete all accounts" on one side: Supabase, the Firebase project, or one Firebase tenant (a
/// side of its own). The page asks for the side's name to be typed; the POST deletes through the
/// admin APIs (`DELETE /admin/users/ID` each; `accounts:batchDelete` with `force`, 1,000 at a time).
struct ConsoleDeleteAllPage: ConsolePage {
  let context: ConsoleContext

  /// What must be typed to delete every account of `side`: "Supabase", "Firebase", or the tenant.
  static func deleteAllName(side: ConsoleSide, tenant: String?) -> String {
    side == .firebase ? tenant ?? side.label : side.label
  }

  /// The side and tenant a delete-all page or POST is about, or the page refusing it.
  private func deleteAllTarget() async -> Result<(ConsoleSide, String?), ActionFailure> {
    guard let side = parameter("side").flatMap(ConsoleSide.init(rawValue:)) else {
      return .failure(ActionFailure(status: 400, message: "Choose a backend."))
    }
    guard side == .firebase, let tenant else { return .success((side, nil)) }
    guard await firebaseTenants().contains(tenant) else {
      return .failure(ActionFailure(status: 404, message: "No tenant is named \(tenant)."))
    }
    return .success((side, tenant))
  }

  /// The ids of every account of the side (read from the state the APIs serve).
  private func allAccountIds(side: ConsoleSide, tenant: String?) -> [String] {
    switch side {
    case .supabase: return supabase.state.read { Array($0.users.keys) }
    case .firebase:
      let key = FirebaseProject.stateKey(projectId: projectId, tenantId: tenant)
      return firebase.state.with(key) { Array($0.users.keys) }
    }
  }

  private static func sideWords(_ side: ConsoleSide, tenant: String?) -> String {
    tenant.map { "\(side.label) tenant \($0)" } ?? (side == .firebase ? "the Firebase project" : side.label)
  }

  /// `GET /_/delete-all?side=…[&tenant=…]`: how many would go, and a field for the side's name.
  func deleteAllPage() async -> ServerResponse {
    typealias H = ConsoleHTML
    let (side, tenant): (ConsoleSide, String?)
    switch await deleteAllTarget() {
    case .success(let target): (side, tenant) = target
    case .failure(let failure): return Self.problem(failure.status, failure.message, back: "/_/")
    }
    let count = allAccountIds(side: side, tenant: tenant).count
    let name = Self.deleteAllName(side: side, tenant: tenant)
    let words = Self.sideWords(side, tenant: tenant)
    var body = "<p class=\"warning\">Delete all \(count) \(count == 1 ? "account" : "accounts") of "
    body += "\(H.text(words))? Their sessions go with them; this cannot be undone. "
    body += side == .firebase && tenant == nil ? "Tenants keep their accounts. " : ""
    body += "The other backend keeps its accounts.</p>"
    body +=
      "<form method=\"post\" action=\"/_/delete-all\" id=\"delete-all-form\">" + H.tokenField(EmulatorConsole.token)
    body += "<input type=\"hidden\" name=\"side\" value=\"\(side.rawValue)\">"
    if let tenant { body += "<input type=\"hidden\" name=\"tenant\" value=\"\(H.attribute(tenant))\">" }
    body += "<label for=\"delete-all-name\">Type <strong>\(H.text(name))</strong> to confirm</label>"
    body += "<input id=\"delete-all-name\" name=\"name\" autocomplete=\"off\" required> "
    body += "<button type=\"submit\" class=\"danger\">Delete every account</button> "
    body += H.link(deleteAllListURL(side, tenant), "No, back to the list") + "</form>"
    return Self.html(200, H.page(title: "Delete all accounts of \(words)?", section: .accounts, body: body))
  }

  private func deleteAllListURL(_ side: ConsoleSide, _ tenant: String?) -> String {
    "/_/?side=\(side.rawValue)" + (tenant.map { "&tenant=" + ConsoleHTML.component($0) } ?? "")
  }

  /// `POST /_/delete-all`: only when the typed name is the side's.
  func deleteAll() async -> ServerResponse {
    let (side, tenant): (ConsoleSide, String?)
    switch await deleteAllTarget() {
    case .success(let target): (side, tenant) = target
    case .failure(let failure): return Self.problem(failure.status, failure.message, back: "/_/")
    }
    let name = Self.deleteAllName(side: side, tenant: tenant)
    var page = "/_/delete-all?side=\(side.rawValue)"
    if let tenant { page += "&tenant=" + ConsoleHTML.component(tenant) }
    guard field("name") == name else {
      return Self.problem(400, "Nothing deleted: type \(name) exactly to delete every account.", back: page)
    }
    let ids = allAccountIds(side: side, tenant: tenant)
    switch side {
    case .supabase:
      for id in ids {
        let answer = await supabaseAdmin("DELETE", "/admin/users/" + ConsoleHTML.component(id))
        if !answer.ok, answer.status != 404 { return Self.problem(answer.status, answer.message, back: page) }
      }
    case .firebase:
      var start = 0
      while start < ids.count {
        let chunk = ids[start..<min(start + 1000, ids.count)]
        let body: JSON = ["localIds": .array(chunk.map { .string($0) }), "force": true]
        let answer = await firebaseAdmin("accounts:batchDelete", tenant: tenant, body: body)
        if !answer.ok { return Self.problem(answer.status, answer.message, back: page) }
        start += 1000
      }
    }
    return Self.redirect(deleteAllListURL(side, tenant) + "&done=" + ConsoleNotice.allDeleted.rawValue)
  }
}
