import Essentials
import HTTPServerKit
import JSONKit

/// Admin-only operations (`Bearer owner`): listing, batch deletion, queries, session cookies and
/// the v2 project config (`operations.ts` `batchGet`, `batchDelete`, `queryAccounts`,
/// `createSessionCookie`, `getConfig`, `updateConfig`).
struct FirebaseAdminRoutes: Sendable {
  let context: FirebaseContext

  func batchGet(_ call: FirebaseCall) throws -> JSON {
    var maxResults = 20
    if let text = call.request.query("maxResults") {
      guard let value = Int(text) else { throw FirebaseError.invalidArgument("maxResults should be integer") }
      maxResults = value == 0 ? 20 : min(value, 1000)
    }
    let startToken = call.request.query("nextPageToken").flatMap { $0.isEmpty ? nil : $0 }
    return context.state.with(call.projectId) { project in
      // One more than a page is never needed: a full page gets a token (as `operations.ts` does).
      var users = project.usersByLocalId(after: startToken, limit: maxResults >= 0 ? maxResults : nil)
      var nextPageToken: String?
      if maxResults >= 0, users.count >= maxResults {
        users = Array(users.prefix(maxResults))
        nextPageToken = users.last?.localId
      }
      var response = JSONObject()
      response["kind"] = "identitytoolkit#DownloadAccountResponse"
      response["users"] = .array(users.map { $0.adminJSON(project) })
      if let nextPageToken { response["nextPageToken"] = .string(nextPageToken) }
      return .object(response)
    }
  }

  func batchDelete(_ call: FirebaseCall) throws -> JSON {
    let localIds = call.body.strings("localIds")
    try require(!localIds.isEmpty && localIds.count <= 1000, "LOCAL_ID_LIST_EXCEEDS_LIMIT")
    let force = call.body.bool("force") == true
    return try context.state.with(call.projectId) { project in
      var errors: [JSON] = []
      for (index, localId) in localIds.enumerated() {
        guard let user = project.user(localId: localId) else { continue }
        if user.disabled != true && !force {
          errors.append([
            "index": .int(index), "localId": .string(localId),
            "message": "NOT_DISABLED : Disable the account before batch deletion.",
          ])
        } else {
          try project.delete(localId)
        }
      }
      return errors.isEmpty ? [:] : ["errors": .array(errors)]
    }
  }

  func queryAccounts(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    if body.has("expression"), body["expression"]?.array?.isEmpty != true {
      throw FirebaseError.notImplemented("expression is not implemented.")
    }
    let countOnly = body.bool("returnUserInfo") == false
    if !countOnly {
      if body.isTruthy("limit") { throw FirebaseError.notImplemented("limit is not implemented.") }
      if (body.truthy("offset") ?? "0") != "0" { throw FirebaseError.notImplemented("offset is not implemented.") }
      let sortBy = body.string("sortBy") ?? "USER_ID"
      if sortBy != "USER_ID", sortBy != "SORT_BY_FIELD_UNSPECIFIED" {
        throw FirebaseError.notImplemented("Only sorting by USER_ID is implemented.")
      }
    }
    let descending = body.string("order") == "DESC"
    return context.state.with(call.projectId) { project in
      let users = project.usersByLocalId()
      if countOnly { return ["recordsCount": .string(String(users.count))] }
      let ordered = descending ? Array(users.reversed()) : users
      return ["recordsCount": .string(String(users.count)), "userInfo": .array(ordered.map { $0.adminJSON(project) })]
    }
  }

  /// An unsigned session cookie with the ID token's claims (`iss` https://session.firebase.google.com/…).
  func createSessionCookie(_ call: FirebaseCall) throws -> JSON {
    guard let idToken = call.body.truthy("idToken") else { throw FirebaseError.bad("MISSING_ID_TOKEN") }
    // `Number(reqBody.validDuration) || max`, then the range check, as `operations.ts` does:
    // huge, infinite or negative values are INVALID_DURATION; NaN (`inf`, `abc`) is the default.
    let maximum = 14 * 24 * 60 * 60
    let requested = call.body.string("validDuration").map(FirebaseBody.javaScriptNumber) ?? .nan
    let seconds = requested == 0 || requested.isNaN ? Double(maximum) : requested
    try require(seconds >= 5 * 60 && seconds <= Double(maximum), "INVALID_DURATION")
    let validDuration = Int(seconds)  // in range: cannot trap
    return try context.state.with(call.projectId) { project in
      var claims = try context.parseIdToken(project, idToken).token.payload
      let issuedAt = FirebaseTime.seconds(context.now)
      claims["iat"] = .int(issuedAt)
      claims["exp"] = .int(issuedAt + validDuration)
      claims["iss"] = .string("https://session.firebase.google.com/" + (claims["aud"]?.string ?? project.projectId))
      return ["sessionCookie": .string(EmulatorJWT.unsigned(.object(claims)))]
    }
  }

  // MARK: - Project config (v2 admin API and the emulator's own endpoint)

  /// The v2 `Config`: `signIn.email` as Google answers it (false booleans left out), the rest as
  /// the official emulator does.
  static func adminConfig(_ project: FirebaseProject, likeProduction: Bool) -> JSON {
    [
      "signIn": [
        "email": project.emailSignIn.json, "hashConfig": hashConfigJSON(project.storedHashConfig()),
        "allowDuplicateEmails": .bool(project.allowDuplicateEmails),
      ],
      "blockingFunctions": [:],
      "emailPrivacyConfig": ["enableImprovedEmailPrivacy": .bool(project.emailPrivacy)],
      "mfa": FirebaseAPI.mfaConfigJSON(project, likeProduction: likeProduction),
    ]
  }

  /// `signIn.hashConfig` as production shows it (and as `user import --hash-config` reads it).
  static func hashConfigJSON(_ config: FirebaseScryptParameters) -> JSON {
    [
      "algorithm": "SCRYPT", "signerKey": .string(Base64.encode(config.signerKey)),
      "saltSeparator": .string(Base64.encode(config.saltSeparator)),
      "rounds": .int(config.rounds), "memoryCost": .int(config.memoryCost),
    ]
  }

  static func emulatorConfig(_ project: FirebaseProject) -> JSON {
    [
      "signIn": ["email": project.emailSignIn.json, "allowDuplicateEmails": .bool(project.allowDuplicateEmails)],
      "emailPrivacyConfig": ["enableImprovedEmailPrivacy": .bool(project.emailPrivacy)],
    ]
  }

  func updateAdminConfig(_ call: FirebaseCall) throws -> JSON {
    let mask = (call.request.query("updateMask") ?? "").split(separator: ",").map { String($0) }
    let likeProduction = context.mode.likeProduction
    return try context.state.with(call.projectId) { project in
      try Self.applyConfig(call.body, mask: mask, to: project)
      return Self.adminConfig(project, likeProduction: likeProduction)
    }
  }

  /// `updateConfig`: an empty mask replaces the whole config (absent fields become false);
  /// otherwise only the masked paths change.
  static func applyConfig(_ body: FirebaseBody, mask: [String], to project: FirebaseProject) throws {
    let signIn = body["signIn"]?.object ?? JSONObject()
    let privacyConfig = body["emailPrivacyConfig"]?.object ?? JSONObject()
    for (path, value) in [
      ("/signIn/allowDuplicateEmails", signIn["allowDuplicateEmails"]),
      ("/emailPrivacyConfig/enableImprovedEmailPrivacy", privacyConfig["enableImprovedEmailPrivacy"]),
    ] {
      if let value, value.bool == nil { throw FirebaseError.invalidArgument("\(path) should be boolean") }
    }
    let emailObject = signIn["email"]?.object
    if signIn["email"] != nil, emailObject == nil {
      throw FirebaseError.invalidArgument("/signIn/email should be object")
    }
    for field in ["enabled", "passwordRequired"] {
      if let value = emailObject?[field], value.bool == nil {
        throw FirebaseError.invalidArgument("/signIn/email/\(field) should be boolean")
      }
    }
    let newAllow = signIn["allowDuplicateEmails"]?.bool
    let newPrivacy = privacyConfig["enableImprovedEmailPrivacy"]?.bool
    var allow = project.allowDuplicateEmails
    var privacy = project.emailPrivacy
    var email = project.emailSignIn
    // A whole `signIn.email` replaces both fields (absent = false, Google's default).
    func replaceEmail() {
      guard let emailObject else { return }
      email = FirebaseEmailSignIn(
        enabled: emailObject["enabled"]?.bool ?? false,
        passwordRequired: emailObject["passwordRequired"]?.bool ?? false)
    }
    if mask.isEmpty {
      allow = newAllow ?? false
      privacy = newPrivacy ?? false
      // Only a body that names signIn.email changes it (older callers send just the privacy setting).
      replaceEmail()
    }
    for path in mask {
      switch path {
      case "signIn.allowDuplicateEmails": if let newAllow { allow = newAllow }
      case "signIn.email": replaceEmail()
      case "signIn.email.enabled": email.enabled = emailObject?["enabled"]?.bool ?? false
      case "signIn.email.passwordRequired": email.passwordRequired = emailObject?["passwordRequired"]?.bool ?? false
      case "signIn":
        if body.has("signIn") {
          allow = newAllow ?? false
          replaceEmail()
        }
      case "emailPrivacyConfig.enableImprovedEmailPrivacy": if let newPrivacy { privacy = newPrivacy }
      case "emailPrivacyConfig": if body.has("emailPrivacyConfig") { privacy = newPrivacy ?? false }
      default: continue
      }
    }
    try project.setConfig(allowDuplicateEmails: allow, emailPrivacy: privacy, emailSignIn: email)
    try FirebaseAPI.applyMfaConfig(body, mask: mask, to: project)
  }
}
