import Essentials
import JSONKit

/// `accounts:lookup`, `accounts:delete` and `accounts:createAuthUri` (`operations.ts`).
struct FirebaseAccountRoutes: Sendable {
  let context: FirebaseContext
  /// `createAuthUri` with a `providerId` starts a browser sign-in there.
  let oauth: FirebaseOAuthRoutes

  func lookup(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    return try context.state.with(call.projectId) { project in
      var users: [FirebaseUser] = []
      func add(_ user: FirebaseUser?) {
        if let user, !users.contains(where: { $0.localId == user.localId }) { users.append(user) }
      }
      if call.privileged {
        if body.has("initialEmail") { throw FirebaseError.notImplemented("Lookup by initialEmail is not implemented.") }
        for localId in body.strings("localId") { add(project.user(localId: localId)) }
        for email in body.strings("email") { add(project.user(email: FirebaseRules.canonicalEmail(email))) }
        for phone in body.strings("phoneNumber") { add(project.user(phoneNumber: phone)) }
        for federated in body["federatedUserId"]?.array ?? [] {
          guard let providerId = federated["providerId"]?.string, let rawId = federated["rawId"]?.string else {
            continue
          }
          switch providerId {
          case "password": add(project.user(email: rawId).flatMap { $0.passwordHash == nil ? nil : $0 })
          case "phone": add(project.user(phoneNumber: rawId))
          default: add(project.user(providerId: providerId, rawId: rawId))
          }
        }
      } else {
        guard let idToken = body.truthy("idToken") else { throw FirebaseError.bad("MISSING_ID_TOKEN") }
        add(try context.parseIdToken(project, idToken).user)
      }
      var response = JSONObject()
      response["kind"] = "identitytoolkit#GetAccountInfoResponse"
      // No match: no `users` key at all (the Node Admin SDK depends on it).
      if !users.isEmpty {
        response["users"] = .array(
          users.map { call.privileged ? $0.adminJSON(project) : $0.publicJSON(tenantId: project.tenantId) })
      }
      return .object(response)
    }
  }

  func deleteAccount(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    return try context.state.with(call.projectId) { project in
      let user: FirebaseUser
      if call.privileged {
        guard let localId = body.truthy("localId") else { throw FirebaseError.bad("MISSING_LOCAL_ID") }
        guard let found = project.user(localId: localId) else { throw FirebaseError.bad("USER_NOT_FOUND") }
        user = found
      } else {
        guard let idToken = body.truthy("idToken") else { throw FirebaseError.bad("MISSING_ID_TOKEN") }
        user = try context.parseIdToken(project, idToken).user
      }
      try project.delete(user.localId)
      return ["kind": "identitytoolkit#DeleteAccountResponse"]
    }
  }

  func createAuthUri(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    let sessionId = body.truthy("sessionId") ?? FirebaseRandom.alphanumeric(27)
    if let providerId = body.truthy("providerId") {
      return try oauth.createProviderAuthUri(call, providerId: providerId, sessionId: sessionId)
    }
    guard let identifier = body.truthy("identifier") else { throw FirebaseError.bad("MISSING_IDENTIFIER") }
    guard let continueUri = body.truthy("continueUri") else { throw FirebaseError.bad("MISSING_CONTINUE_URI") }
    try require(FirebaseRules.isValidEmail(identifier), "INVALID_IDENTIFIER")
    let email = FirebaseRules.canonicalEmail(identifier)
    try require(FirebaseRules.isAbsoluteURI(continueUri), "INVALID_CONTINUE_URI")
    return context.state.with(call.projectId) { project in
      let user = project.user(email: email)
      var response = JSONObject()
      response["kind"] = "identitytoolkit#CreateAuthUriResponse"
      if context.emailPrivacy(project) {
        response["sessionId"] = .string(sessionId)
        return .object(response)
      }
      // `password` when it has a password, `emailLink` when it signed in by link, then each IdP.
      var providers: [JSON] = []
      var methods: [JSON] = []
      if let user {
        if user.passwordHash != nil || user.emailLinkSignin == true { providers.append("password") }
        if user.passwordHash != nil { methods.append("password") }
        if user.emailLinkSignin == true { methods.append("emailLink") }
        if !project.allowDuplicateEmails {
          for info in user.federated {
            providers.append(.string(info.providerId))
            methods.append(.string(info.providerId))
          }
        }
      }
      response["registered"] = .bool(user != nil)
      response["allProviders"] = .array(providers)
      response["sessionId"] = .string(sessionId)
      response["signinMethods"] = .array(methods)
      return .object(response)
    }
  }
}
