import Essentials
import HTTPServerKit
import JSONKit

/// The markup of the accounts list (escaped data only): the list's form, table, selection buttons and
/// paging, and the addresses of the list and of one account.
enum ConsoleAccountsView {
  static func listURL(side: ConsoleSide, tenant: String?, query: ConsoleListQuery, page: Int? = nil) -> String {
    var items = [("side", side.rawValue)]
    if let tenant { items.append(("tenant", tenant)) }
    if !query.search.isEmpty { items.append(("q", query.search)) }
    items += query.filters.parameters
    items.append(("sort", query.sort.rawValue))
    items.append(("order", query.newestFirst ? "newest" : "oldest"))
    items.append(("page", String(page ?? query.page)))
    return "/_/?" + items.map { "\($0.0)=\(ConsoleHTML.component($0.1))" }.joined(separator: "&")
  }

  static func accountURL(side: ConsoleSide, id: String, tenant: String?) -> String {
    "/_/accounts/\(side.rawValue)/\(ConsoleHTML.component(id))"
      + (tenant.map { "?tenant=\(ConsoleHTML.component($0))" } ?? "")
  }

  static func accountsBody(
    side: ConsoleSide, tenant: String?, tenants: [String], query: ConsoleListQuery, rows: [ConsoleAccountRow],
    window: ConsolePaging.Window
  ) -> String {
    typealias H = ConsoleHTML
    var out = "<nav class=\"tabs\" aria-label=\"Backend\">"
    for each in ConsoleSide.allCases {
      out += H.link("/_/?side=\(each.rawValue)", each.label, current: each == side)
    }
    out += "</nav>"
    out += "<form method=\"get\" action=\"/_/\" role=\"search\">"
    out += "<input type=\"hidden\" name=\"side\" value=\"\(side.rawValue)\">"
    if side == .firebase {
      out += "<label for=\"tenant\">Tenant</label><select id=\"tenant\" name=\"tenant\">"
      out += "<option value=\"\">the project itself</option>"
      for each in tenants {
        let selected = each == tenant ? " selected" : ""
        out += "<option value=\"\(H.attribute(each))\"\(selected)>\(H.text(each))</option>"
      }
      out += "</select> "
    }
    out += "<label for=\"q\">Search e-mail, id or name</label>"
    out += "<input id=\"q\" name=\"q\" type=\"search\" value=\"\(H.attribute(query.search))\"> "
    out += "<label for=\"sort\">Sort by</label><select id=\"sort\" name=\"sort\">"
    for (value, label) in [("created", "created"), ("last_sign_in", "last sign-in")] {
      let selected = value == query.sort.rawValue ? " selected" : ""
      out += "<option value=\"\(value)\"\(selected)>\(label)</option>"
    }
    out += "</select> <label for=\"order\">Order</label><select id=\"order\" name=\"order\">"
    out += "<option value=\"newest\"\(query.newestFirst ? " selected" : "")>newest first</option>"
    out += "<option value=\"oldest\"\(query.newestFirst ? "" : " selected")>oldest first</option></select> "
    out += filterFields(side: side, filters: query.filters)
    out += "<button type=\"submit\">Show</button></form>"
    let noun = window.total == 1 ? "account" : "accounts"
    out += "<p id=\"count\" role=\"status\">\(window.total) \(noun)"
    out += query.search.isEmpty ? "" : " matching “\(H.text(query.search))”"
    out += query.filters.isEmpty ? "" : " (\(H.text(query.filters.summary(side))))"
    out += " · page \(window.page) of \(window.pageCount)</p>"
    // The table is inside the selection's form: a tick per row, the actions under it.
    out += "<form method=\"get\" action=\"/_/bulk\" id=\"bulk\">"
    out += "<input type=\"hidden\" name=\"side\" value=\"\(side.rawValue)\">"
    if let tenant { out += "<input type=\"hidden\" name=\"tenant\" value=\"\(H.attribute(tenant))\">" }
    out += "<div class=\"table-wrap\"><table id=\"accounts\"><caption>\(side.label) accounts"
    out += tenant.map { " of tenant \(H.text($0))" } ?? ""
    out += "</caption><thead><tr><th scope=\"col\">"
    // Shown and worked by console.js (without script, each row is ticked by itself).
    out += "<input type=\"checkbox\" id=\"select-all\" aria-label=\"Select every account on this page\" hidden> "
    out += "E-mail</th><th scope=\"col\">Name</th><th scope=\"col\">Id</th>"
    out += "<th scope=\"col\">Confirmed</th><th scope=\"col\">\(side == .supabase ? "Banned" : "Disabled")</th>"
    out += "<th scope=\"col\">Factors</th><th scope=\"col\">Providers</th><th scope=\"col\">Phone</th>"
    out += "<th scope=\"col\">Created</th><th scope=\"col\">Last sign-in</th></tr></thead><tbody>"
    for row in rows {
      let label =
        switch row.state {
        case .deleted: "(deleted account)"
        case .anonymous: "(anonymous account)"
        case .live: row.email.isEmpty ? "(no e-mail)" : row.email
        }
      out += "<tr><td><input type=\"checkbox\" name=\"id\" value=\"\(H.attribute(row.id))\" "
      out += "aria-label=\"Select \(H.attribute(label)) (\(H.attribute(row.id)))\"> "
      out += H.link(accountURL(side: side, id: row.id, tenant: tenant), label) + "</td>"
      out += "<td>\(H.text(row.name))</td><td>\(H.id(row.id))</td>"
      out += "<td>\(yesNo(row.confirmed))</td><td>\(yesNo(row.disabled, goodWhenFalse: true))</td>"
      out += "<td>\(row.factors)</td><td>\(H.text(row.providers.joined(separator: ", ")))</td>"
      out += "<td>\(H.text(row.phone))</td><td>\(H.time(milliseconds: row.createdMs))</td>"
      out += "<td>\(H.time(milliseconds: row.lastSignInMs))</td></tr>"
    }
    out += "</tbody></table></div>" + bulkButtons(side: side) + "</form>"
    out += pagingNav(side: side, tenant: tenant, query: query, window: window)
    let deleteAll = "/_/delete-all?side=\(side.rawValue)" + (tenant.map { "&tenant=" + H.component($0) } ?? "")
    let whose = tenant.map { " of tenant \($0)" } ?? (side == .firebase && !tenants.isEmpty ? " of the project" : "")
    let text = "Delete all \(side.label) accounts\(whose)…"
    out += ConsoleTransferPages.transferLinks(side: side, tenant: tenant)
    return out + "<p><a class=\"danger\" id=\"delete-all\" href=\"\(H.attribute(deleteAll))\">\(H.text(text))</a></p>"
  }

  /// The buttons under the list: each asks on the next page before doing anything.
  static func bulkButtons(side: ConsoleSide) -> String {
    var out = "<fieldset id=\"bulk-actions\"><legend>With the selected accounts</legend>"
    for action in ConsoleBulkPages.BulkAction.allCases {
      let danger = action == .delete ? " class=\"danger\"" : ""
      out += "<button type=\"submit\" name=\"action\" value=\"\(action.rawValue)\"\(danger)>"
      out += "\(ConsoleHTML.text(action.label(side)))</button> "
    }
    return out + "</fieldset>"
  }

  /// Search-and-filter checkboxes (each keeps only the accounts that have it) and a provider.
  static func filterFields(side: ConsoleSide, filters: ConsoleFilters) -> String {
    typealias H = ConsoleHTML
    var out = "<fieldset id=\"filters\"><legend>Only accounts that are</legend>"
    for flag in ConsoleFilters.Flag.allCases {
      let checked = filters.flags.contains(flag) ? " checked" : ""
      out +=
        "<label><input type=\"checkbox\" name=\"\(flag.rawValue)\" value=\"1\"\(checked)> \(flag.label(side))</label>"
    }
    out += "<label for=\"provider\">with the provider</label><select id=\"provider\" name=\"provider\">"
    out += "<option value=\"\">any</option>"
    let providers =
      side == .supabase
      ? ["email", "phone", "google", "github", "apple", "azure", "facebook", "gitlab", "sso"]
      : ["password", "phone", "emailLink", "google.com", "github.com", "apple.com", "facebook.com", "microsoft.com"]
    for provider in Set(providers + [filters.provider]).filter({ !$0.isEmpty }).sorted() {
      let selected = provider == filters.provider ? " selected" : ""
      out += "<option value=\"\(H.attribute(provider))\"\(selected)>\(H.text(provider))</option>"
    }
    return out + "</select></fieldset>"
  }

  /// First, previous, a page number to jump to, next and last.
  static func pagingNav(side: ConsoleSide, tenant: String?, query: ConsoleListQuery, window: ConsolePaging.Window)
    -> String
  {
    typealias H = ConsoleHTML
    func url(_ page: Int) -> String { listURL(side: side, tenant: tenant, query: query, page: page) }
    var out = "<nav aria-label=\"Pages\" class=\"paging\">"
    if window.page > 1 {
      out += H.link(url(1), "« First page") + " " + H.link(url(window.page - 1), "← Previous page") + " "
    }
    if window.pageCount > 1 {
      out += "<form method=\"get\" action=\"/_/\" class=\"inline\" id=\"jump\">"
      var state = [("side", side.rawValue)]
      if let tenant { state.append(("tenant", tenant)) }
      if !query.search.isEmpty { state.append(("q", query.search)) }
      state += query.filters.parameters
      state += [("sort", query.sort.rawValue), ("order", query.newestFirst ? "newest" : "oldest")]
      for (name, value) in state {
        out += "<input type=\"hidden\" name=\"\(H.attribute(name))\" value=\"\(H.attribute(value))\">"
      }
      out += "<label for=\"page\">Page</label><input id=\"page\" name=\"page\" type=\"number\" min=\"1\" "
      out += "max=\"\(window.pageCount)\" value=\"\(window.page)\"> of \(window.pageCount) "
      out += "<button type=\"submit\">Go</button></form> "
    }
    if window.page < window.pageCount {
      out += H.link(url(window.page + 1), "Next page →") + " " + H.link(url(window.pageCount), "Last page »")
    }
    return out + "</nav>"
  }

  static func yesNo(_ value: Bool, goodWhenFalse: Bool = false) -> String {
    let good = value != goodWhenFalse
    return "<span class=\"\(good ? "yes" : "no")\">\(value ? "yes" : "no")</span>"
  }
}
