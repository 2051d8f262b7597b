import Essentials
import HTTPServerKit
import JSONKit

/// The edits of one account page: e-mail, phone and name, and the JSON fields (Supabase user and
/// app metadata, Firebase custom claims), each saved through the admin API the official clients
/// use, whose rules and errors apply. After an error the page comes back with what was typed.
struct ConsoleAccountEdit: ConsolePage {
  let context: ConsoleContext

  static func jsonFields(_ side: ConsoleSide) -> [String] {
    side == .supabase ? ["user_metadata", "app_metadata"] : ["customAttributes"]
  }

  func editSection(side: ConsoleSide, id: String, user: JSON, failure: EditFailure?) -> String {
    typealias H = ConsoleHTML
    let base = "/_/accounts/\(side.rawValue)/\(H.component(id))/"
    let scope = tenant.map { "<input type=\"hidden\" name=\"tenant\" value=\"\(H.attribute($0))\">" } ?? ""
    func kept(_ form: String, _ name: String, _ current: String) -> String {
      failure?.form == form ? field(name) ?? "" : current
    }
    func alert(_ form: String) -> String {
      guard let failure, failure.form == form else { return "" }
      return "<p class=\"warning\" role=\"alert\">\(H.text(failure.message))</p>"
    }
    let email = user["email"]?.string ?? ""
    let phone = side == .supabase ? user["phone"]?.string ?? "" : user["phoneNumber"]?.string ?? ""
    let name =
      side == .supabase ? user["user_metadata"]?["full_name"]?.string ?? "" : user["displayName"]?.string ?? ""
    var out = "<h2>Edit</h2>" + alert("profile")
    out += "<p class=\"muted\">" + Self.emptyFieldsHint(side) + "</p>"
    out +=
      "<form method=\"post\" action=\"\(H.attribute(base + "profile"))\" id=\"profile\">"
      + H.tokenField(EmulatorConsole.token)
    out += scope + "<p><label for=\"edit-email\">E-mail</label><input id=\"edit-email\" name=\"email\" type=\"email\" "
    out += "value=\"\(H.attribute(kept("profile", "email", email)))\"></p>"
    out += "<p><label for=\"edit-phone\">Phone</label><input id=\"edit-phone\" name=\"phone\" type=\"tel\" "
    out += "value=\"\(H.attribute(kept("profile", "phone", phone)))\"></p>"
    out += "<p><label for=\"edit-name\">Name</label><input id=\"edit-name\" name=\"name\" "
    out += "value=\"\(H.attribute(kept("profile", "name", name)))\"></p>"
    out += "<button type=\"submit\">Save e-mail, phone and name</button></form>"
    for key in Self.jsonFields(side) {
      var value = user[key] ?? .object(JSONObject())
      if case .string(let text) = value, let parsed = try? JSON.parse(text) { value = parsed }
      let label = key == "customAttributes" ? "Custom claims (customAttributes)" : key
      out += "<h3 id=\"\(key)-heading\">\(H.text(label))</h3>" + alert(key)
      out +=
        "<form method=\"post\" action=\"\(H.attribute(base + "json"))\">" + H.tokenField(EmulatorConsole.token) + scope
      out += "<input type=\"hidden\" name=\"field\" value=\"\(key)\">"
      out += "<label for=\"edit-\(key)\">\(H.text(label)) as JSON</label>"
      if key == "customAttributes" {
        let reserved = FirebaseUpdateRoutes.reservedClaims.joined(separator: ", ")
        out += "<p class=\"muted\">At most 1000 characters as compact JSON; reserved names are refused: "
        out += "\(H.text(reserved)).</p>"
      }
      let text = kept(key, "json", value.prettyText)
      let rows = min(max(text.split(separator: "\n", omittingEmptySubsequences: false).count + 1, 4), 20)
      out += "<textarea id=\"edit-\(key)\" name=\"json\" rows=\"\(rows)\" spellcheck=\"false\">"
      out += H.text(text) + "</textarea>"
      out += "<button type=\"submit\">Save \(H.text(label))</button></form>"
    }
    return out
  }

  /// What an empty field does, as the admin API takes it.
  static func emptyFieldsHint(_ side: ConsoleSide) -> String {
    side == .supabase
      ? "An empty e-mail or phone is left as it is (the admin API removes neither); an empty name is removed."
      : "An empty phone or name is removed; an empty e-mail is left as it is."
  }

  /// `POST …/profile`: the e-mail, phone and name as typed (an empty e-mail or Supabase phone is
  /// left as it is; an empty name, or an empty Firebase phone, is removed).
  func editProfile(side: ConsoleSide, id: String, user: JSON) async -> Result<ConsoleNotice, EditFailure> {
    let email = field("email") ?? ""
    let phone = field("phone") ?? ""
    let name = field("name") ?? ""
    let answer: APIAnswer
    switch side {
    case .supabase:
      var body = JSONObject()
      if !email.isEmpty, email != user["email"]?.string { body["email"] = .string(email) }
      if !phone.isEmpty, ConsoleAccountSections.phoneDigits(phone) != user["phone"]?.string {
        body["phone"] = .string(phone)
      }
      body["user_metadata"] = ["full_name": name.isEmpty ? .null : .string(name)]
      answer = await supabaseAdmin("PUT", "/admin/users/" + ConsoleHTML.component(id), body: .object(body))
    case .firebase:
      var body = JSONObject()
      body["localId"] = .string(id)
      if !email.isEmpty, email != user["email"]?.string { body["email"] = .string(email) }
      var deleteProvider: [JSON] = []
      if phone.isEmpty {
        if user["phoneNumber"] != nil { deleteProvider.append("phone") }
      } else if phone != user["phoneNumber"]?.string {
        body["phoneNumber"] = .string(phone)
      }
      if !deleteProvider.isEmpty { body["deleteProvider"] = .array(deleteProvider) }
      if name.isEmpty { body["deleteAttribute"] = ["DISPLAY_NAME"] } else { body["displayName"] = .string(name) }
      answer = await firebaseAdmin("accounts:update", tenant: tenant, body: .object(body))
    }
    guard answer.ok else {
      return .failure(EditFailure(form: "profile", message: answer.message, status: answer.status))
    }
    return .success(.profileSaved)
  }

  /// `POST …/json`: one JSON field set to exactly the object typed (Supabase merges, so keys that
  /// are gone are sent as null; Firebase claims go as `customAttributes` and are checked there).
  func editJSON(side: ConsoleSide, id: String, user: JSON) async -> Result<ConsoleNotice, EditFailure> {
    let key = field("field") ?? ""
    guard Self.jsonFields(side).contains(key) else {
      return .failure(EditFailure(form: "", message: "No such field.", status: 400))
    }
    let text = field("json") ?? ""
    let trimmed = text.allSatisfy { $0.isWhitespace } ? "{}" : text
    guard let parsed = try? JSON.parse(trimmed) else {
      return .failure(
        EditFailure(form: key, message: "This is not JSON: check quotes, commas and braces.", status: 400))
    }
    guard case .object(var object) = parsed else {
      return .failure(EditFailure(form: key, message: "Type a JSON object: { … }.", status: 400))
    }
    let answer: APIAnswer
    switch side {
    case .supabase:
      for old in user[key]?.object?.keys ?? [] where object[old] == nil { object[old] = .null }
      let path = "/admin/users/" + ConsoleHTML.component(id)
      answer = await supabaseAdmin("PUT", path, body: [key: .object(object)])
    case .firebase:
      let body: JSON = ["localId": .string(id), "customAttributes": .string(parsed.compactText)]
      answer = await firebaseAdmin("accounts:update", tenant: tenant, body: body)
    }
    guard answer.ok else { return .failure(EditFailure(form: key, message: answer.message, status: answer.status)) }
    return .success(
      key == "user_metadata" ? .userMetadataSaved : key == "app_metadata" ? .appMetadataSaved : .claimsSaved)
  }
}
