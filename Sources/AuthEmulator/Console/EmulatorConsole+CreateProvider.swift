import Essentials
import HTTPServerKit
import JSONKit

/// Create with a provider identity (Google, GitHub, …): no admin API of either backend makes one,
/// so the account is made as `--seed` makes it (the same checks, the same shape as the backend
/// leaves it), then its phone and claims go through the admin API like any edit.
extension EmulatorConsole {
  /// The providers offered, in names both sides' seed lines take (`google` is `google.com` on Firebase).
  static let createProviders = ["google", "github", "apple", "facebook", "twitter"]

  func providerField(kept: Bool) -> String {
    typealias H = ConsoleHTML
    let chosen = kept ? field("provider") ?? "" : ""
    var out = "<p><label for=\"create-provider\">Provider identity (optional)</label>"
    out += "<select id=\"create-provider\" name=\"provider\"><option value=\"\">none</option>"
    for name in Self.createProviders {
      out += "<option value=\"\(name)\"\(name == chosen ? " selected" : "")>\(H.text(name))</option>"
    }
    return out + "</select></p>"
  }

  /// The new account's id, or the form's message and status.
  func createWithProvider(
    side: ConsoleSide, provider: String, phone: String, claims: JSON?
  ) async -> Result<String, EditFailure> {
    guard Self.createProviders.contains(provider) else {
      return .failure(EditFailure(form: "create", message: "Choose one of the providers.", status: 400))
    }
    if side == .firebase, tenant != nil {
      return .failure(
        EditFailure(form: "create", message: "A provider identity is made on the project, not a tenant.", status: 400))
    }
    let password = field("password").flatMap { $0.isEmpty ? nil : $0 }
    var line = JSONObject()
    line["backend"] = .string(side.rawValue)
    if let email = field("email"), !email.isEmpty { line["email"] = .string(email) }
    if let name = field("name"), !name.isEmpty { line["name"] = .string(name) }
    line["password"] = password.map(JSON.string) ?? .null
    var providers: [JSON] = [.string(provider)]
    if password != nil { providers.append(side == .supabase ? "email" : "password") }
    line["providers"] = .array(providers)
    line["confirmed"] = .bool(field("confirmed") == "yes")
    let account: EmulatorSeedAccount
    do {
      guard let parsed = try EmulatorSeed.parse(JSON.object(line).compactText, file: "form").first else {
        return .failure(EditFailure(form: "create", message: "Nothing to create.", status: 400))
      }
      account = parsed
    } catch let error as EmulatorSeedError {
      let message = error.message.hasPrefix("form:1: ") ? String(error.message.dropFirst(8)) : error.message
      return .failure(EditFailure(form: "create", message: message, status: 400))
    } catch {
      return .failure(EditFailure(form: "create", message: "\(error)", status: 400))
    }
    let made: (created: [String], skipped: Int)
    do {
      made = side == .supabase ? try supabase.seed([account]) : try firebase.seed([account])
    } catch {
      return .failure(EditFailure(form: "create", message: "\(error)", status: 500))
    }
    guard let id = made.created.first else {
      let taken =
        side == .supabase ? "A user with this email address has already been registered" : "EMAIL_EXISTS"
      return .failure(EditFailure(form: "create", message: taken, status: side == .supabase ? 422 : 400))
    }
    guard !phone.isEmpty || claims != nil else { return .success(id) }
    let answer: APIAnswer
    switch side {
    case .supabase:
      var body = JSONObject()
      if !phone.isEmpty {
        body["phone"] = .string(phone)
        body["phone_confirm"] = .bool(field("confirmed") == "yes")
      }
      if let claims { body["app_metadata"] = claims }
      answer = await supabaseAdmin("PUT", "/admin/users/" + ConsoleHTML.component(id), body: .object(body))
      if !answer.ok { supabase.unseed([id]) }
    case .firebase:
      var body = JSONObject()
      body["localId"] = .string(id)
      if !phone.isEmpty { body["phoneNumber"] = .string(phone) }
      if let claims { body["customAttributes"] = .string(claims.compactText) }
      answer = await firebaseAdmin("accounts:update", tenant: nil, body: .object(body))
      if !answer.ok { firebase.unseed([id]) }
    }
    guard answer.ok else {
      return .failure(EditFailure(form: "create", message: answer.message, status: answer.status))
    }
    return .success(id)
  }
}
