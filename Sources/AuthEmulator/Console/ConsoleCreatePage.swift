import Essentials
import HTTPServerKit
import JSONKit
import OneTimeCode

/// `/_/create`: a new account through the admin API (Supabase `POST /admin/users`, Firebase
/// `accounts` with owner credentials), with a verified TOTP factor when asked; its secret and QR
/// code are shown once. Or an account with a provider identity, made as `--seed` makes it.
struct ConsoleCreatePage: ConsolePage {
  let context: ConsoleContext

  /// The form; after an error (`message`) it keeps what was typed, except the password.
  func createPage(message: String?) -> ServerResponse {
    typealias H = ConsoleHTML
    let kept = message != nil
    func value(_ name: String) -> String { kept ? H.attribute(field(name) ?? "") : "" }
    func checked(_ name: String, _ fresh: Bool) -> String { (kept ? field(name) == "yes" : fresh) ? " checked" : "" }
    let chosen = kept ? field("side").flatMap(ConsoleSide.init(rawValue:)) ?? .supabase : .supabase
    var body = message.map { "<p class=\"warning\" role=\"alert\">\(H.text($0))</p>" } ?? ""
    if kept { body += "<p class=\"muted\">Type the password again; everything else is kept.</p>" }
    body += "<form method=\"post\" action=\"/_/create\" id=\"create\">" + H.tokenField(EmulatorConsole.token)
    body += "<fieldset><legend>Backend</legend>"
    for side in ConsoleSide.allCases {
      let checked = side == chosen ? " checked" : ""
      body += "<label><input type=\"radio\" name=\"side\" value=\"\(side.rawValue)\"\(checked)> \(side.label)</label>"
    }
    body += "<label for=\"create-tenant\">Firebase tenant (optional)</label>"
    body += "<input id=\"create-tenant\" name=\"tenant\" value=\"\(value("tenant"))\"></fieldset>"
    body += "<p><label for=\"create-email\">E-mail</label><input id=\"create-email\" name=\"email\" type=\"email\" "
    body += "autocomplete=\"off\" value=\"\(value("email"))\"></p>"
    body += "<p><label for=\"create-phone\">Phone (optional)</label>"
    body += "<input id=\"create-phone\" name=\"phone\" type=\"tel\" value=\"\(value("phone"))\"></p>"
    body += "<p><label for=\"create-password\">Password</label>"
    body += "<input id=\"create-password\" name=\"password\" type=\"password\" autocomplete=\"new-password\"></p>"
    body += "<p><label for=\"create-name\">Name</label>"
    body += "<input id=\"create-name\" name=\"name\" value=\"\(value("name"))\"></p>"
    body += "<p><label><input type=\"checkbox\" name=\"confirmed\" value=\"yes\"\(checked("confirmed", true))> "
    body +=
      "E-mail confirmed</label><label><input type=\"checkbox\" name=\"totp\" value=\"yes\"\(checked("totp", false))> "
    body += "With a TOTP factor</label></p>"
    body += "<p><label for=\"create-claims\">Claims as a JSON object (optional: Supabase app_metadata, Firebase custom "
    body += "claims)</label><textarea id=\"create-claims\" name=\"claims\" rows=\"3\" spellcheck=\"false\">"
    body += (kept ? H.text(field("claims") ?? "") : "") + "</textarea></p>"
    body += providerField(kept: kept)
    body += "<button type=\"submit\">Create</button></form>"
    return Self.html(200, H.page(title: "Create an account", section: .create, body: body))
  }

  func createAccount() async -> ServerResponse {
    let side = field("side").flatMap(ConsoleSide.init(rawValue:)) ?? .supabase
    let email = field("email") ?? ""
    let password = field("password").flatMap { $0.isEmpty ? nil : $0 }
    let name = field("name").flatMap { $0.isEmpty ? nil : $0 }
    let confirmed = field("confirmed") == "yes"
    let phone = field("phone") ?? ""
    let tenant = side == .firebase ? self.tenant : nil
    let claimsText = field("claims") ?? ""
    var claims: JSON?
    if !claimsText.allSatisfy(\.isWhitespace) {
      guard let parsed = try? JSON.parse(claimsText), parsed.object != nil else {
        return createPage(message: "The claims are not a JSON object: { … }.").withStatus(400)
      }
      if side == .firebase {
        do { try FirebaseUpdateRoutes.validateCustomClaims(parsed.compactText) } catch let error as FirebaseError {
          return createPage(message: error.message).withStatus(400)
        } catch { return createPage(message: "\(error)").withStatus(400) }
      }
      claims = parsed
    }
    var id: String?
    var answer = APIAnswer(status: 201, json: nil)
    let provider = field("provider") ?? ""
    switch side {
    case _ where !provider.isEmpty:
      switch await createWithProvider(side: side, provider: provider, phone: phone, claims: claims) {
      case .success(let made): id = made
      case .failure(let failure): return createPage(message: failure.message).withStatus(failure.status)
      }
    case .supabase:
      var body = JSONObject()
      if !email.isEmpty { body["email"] = .string(email) }
      body["email_confirm"] = .bool(confirmed && !email.isEmpty)
      if !phone.isEmpty {
        body["phone"] = .string(phone)
        body["phone_confirm"] = .bool(confirmed)
      }
      if let claims { body["app_metadata"] = claims }
      if let password { body["password"] = .string(password) }
      if let name { body["user_metadata"] = ["full_name": .string(name)] }
      answer = await supabaseAdmin("POST", "/admin/users", body: .object(body))
      id = answer.json?["id"]?.string
    case .firebase:
      var body = JSONObject()
      if !email.isEmpty { body["email"] = .string(email) }
      body["emailVerified"] = .bool(confirmed && !email.isEmpty)
      if !phone.isEmpty { body["phoneNumber"] = .string(phone) }
      if let password { body["password"] = .string(password) }
      if let name { body["displayName"] = .string(name) }
      if let tenant { body["tenantId"] = .string(tenant) }
      answer = await firebaseAdmin("accounts", tenant: tenant, body: .object(body))
      id = answer.json?["localId"]?.string
      if answer.ok, let id, let claims {
        let set = await firebaseAdmin(
          "accounts:update", tenant: tenant,
          body: ["localId": .string(id), "customAttributes": .string(claims.compactText)])
        if !set.ok { return createPage(message: set.message).withStatus(set.status) }
      }
    }
    guard answer.ok, let id else { return createPage(message: answer.message).withStatus(answer.status) }
    let page = ConsoleAccountsView.accountURL(side: side, id: id, tenant: tenant)
    guard field("totp") == "yes" else { return Self.redirect(page) }
    let secret = TOTP.newSecret()
    addVerifiedTOTP(side: side, id: id, tenant: tenant, secret: secret)
    let uri = SupabaseFactorRoutes.otpauthURI(issuer: "authsh emulator", account: email, secret: secret)
    typealias H = ConsoleHTML
    var body = "<p>Created \(H.text(email)) with a verified TOTP factor. Scan the code or type the secret:</p>"
    if let svg = QRCodeSVG.svg(uri) {
      let data = "data:image/svg+xml;base64," + Data(svg.utf8).base64EncodedString()
      body += "<p><img class=\"qr\" src=\"\(H.attribute(data))\" alt=\"QR code of the TOTP secret\"></p>"
    }
    body += "<p>Secret: <code id=\"totp-secret\">\(H.text(secret))</code>"
    body += H.copyButton(secret, what: "the secret") + "</p><p><code>\(H.text(uri))</code></p>"
    body += "<p>" + H.link(page, "Open the account") + "</p>"
    return Self.html(201, H.page(title: "Account created", section: .create, body: body))
  }

  /// A verified factor written into the state the APIs read (no admin API makes one).
  private func addVerifiedTOTP(side: ConsoleSide, id: String, tenant: String?, secret: String) {
    switch side {
    case .supabase:
      let micros = now.micros
      _ = try? supabase.state.transaction { data in
        guard var user = data.users[id] else { return }
        user.factors.append(
          SBFactor(
            id: EmulatorRandom.uuid(), friendlyName: "console", status: SBFactor.verified, secret: secret,
            createdAt: micros))
        data.saveUser(user)
      }
    case .firebase:
      let key = FirebaseProject.stateKey(projectId: projectId, tenantId: tenant)
      let enrolledAt = FirebaseTime.iso8601(now)
      try? firebase.state.with(key) { project in
        guard var user = project.user(localId: id) else { return }
        user.mfaInfo.append(
          FirebaseMfaEnrollment(
            mfaEnrollmentId: FirebaseRandom.alphanumeric(28), displayName: "console", enrolledAt: enrolledAt,
            secret: secret))
        try project.save(user)
      }
    }
  }

  // MARK: - With a provider identity

  // Create with a provider identity (Google, GitHub, …): no admin API of either backend makes one,
  // so the account is made as `--seed` makes it (the same checks, the same shape as the backend
  // leaves it), then its phone and claims go through the admin API like any edit.

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
