import Essentials
import HTTPServerKit
import JSONKit
import OneTimeCode

/// `/_/create`: a new account through the admin API (Supabase `POST /admin/users`, Firebase
/// `accounts` with owner credentials), with a verified TOTP factor when asked; its secret and QR
/// code are shown once.
extension EmulatorConsole {
  /// The form; after an error (`message`) it keeps what was typed, except the password.
  func createPage(message: String?) -> ServerResponse {
    typealias H = ConsoleHTML
    let kept = message != nil
    func value(_ name: String) -> String { kept ? H.attribute(field(name) ?? "") : "" }
    func checked(_ name: String, _ fresh: Bool) -> String { (kept ? field(name) == "yes" : fresh) ? " checked" : "" }
    let chosen = kept ? field("side").flatMap(ConsoleSide.init(rawValue:)) ?? .supabase : .supabase
    var body = message.map { "<p class=\"warning\" role=\"alert\">\(H.text($0))</p>" } ?? ""
    if kept { body += "<p class=\"muted\">Type the password again; everything else is kept.</p>" }
    body += "<form method=\"post\" action=\"/_/create\" id=\"create\">" + H.tokenField(Self.token)
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
    let page = Self.accountURL(side: side, id: id, tenant: tenant)
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
}

extension ServerResponse {
  func withStatus(_ status: Int) -> ServerResponse {
    var copy = self
    copy.status = status
    return copy
  }
}
