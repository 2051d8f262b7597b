import Essentials
import HTTPServerKit
import JSONKit

/// The Identity Toolkit + Secure Token side, faithful to the official Firebase Auth emulator for
/// e-mail/password flows (`firebase-tools` `src/emulator/auth`), plus its `/emulator/v1` utilities.
/// Passwords are bcrypt-hashed and never returned (the official emulator stores them in plain text).
/// This is the front: it resolves the route, authenticates, answers CORS and errors, and hands the
/// call to the route's group (`FirebaseSignInRoutes`, `FirebaseAdminRoutes`, …); what the groups
/// share is the `FirebaseContext`.
package final class FirebaseAPI: EmulatorAPI {
  let context: FirebaseContext
  let signIn: FirebaseSignInRoutes
  let customToken: FirebaseCustomTokenRoutes
  let accounts: FirebaseAccountRoutes
  let updates: FirebaseUpdateRoutes
  let oob: FirebaseOobRoutes
  let action: FirebaseActionRoutes
  let admin: FirebaseAdminRoutes
  let batchCreate: FirebaseBatchCreateRoutes
  let tenants: FirebaseTenantRoutes
  let idp: FirebaseIdpRoutes
  let oauth: FirebaseOAuthRoutes
  let phone: FirebasePhoneRoutes
  let mfa: FirebaseMfaRoutes
  let secureToken: FirebaseSecureTokenRoutes
  let emulator: FirebaseEmulatorRoutes

  package init(
    config: EmulatorConfig, clock: any EmulatorClock, outbox: Outbox, store: any DocumentStore,
    mode: EmulatorMode? = nil
  ) throws {
    let context = FirebaseContext(
      config: config, clock: clock, outbox: outbox,
      state: try FirebaseState(defaultProjectId: config.project, emailPrivacy: config.emailPrivacy, store: store),
      mode: mode ?? EmulatorMode(config: config))
    self.context = context
    signIn = FirebaseSignInRoutes(context: context)
    customToken = FirebaseCustomTokenRoutes(context: context)
    oauth = FirebaseOAuthRoutes(context: context)
    accounts = FirebaseAccountRoutes(context: context, oauth: oauth)
    updates = FirebaseUpdateRoutes(context: context)
    oob = FirebaseOobRoutes(context: context)
    action = FirebaseActionRoutes(context: context, passwordReset: oob, updates: updates)
    admin = FirebaseAdminRoutes(context: context)
    batchCreate = FirebaseBatchCreateRoutes(context: context)
    tenants = FirebaseTenantRoutes(context: context)
    idp = FirebaseIdpRoutes(context: context)
    phone = FirebasePhoneRoutes(context: context)
    mfa = FirebaseMfaRoutes(context: context)
    secureToken = FirebaseSecureTokenRoutes(context: context)
    emulator = FirebaseEmulatorRoutes(context: context)
  }

  var config: EmulatorConfig { context.config }
  var state: FirebaseState { context.state }
  var mode: EmulatorMode { context.mode }
  var now: Date { context.now }

  package func handle(_ request: ServerRequest) async -> ServerResponse? {
    guard let route = FirebaseRoute(request) else { return nil }
    if request.method == "OPTIONS" { return preflight(request) }
    if route == .action { return action.emulatorAction(request) }
    if route == .handler { return oauth.oauthHandler(request) }
    do {
      if request.bodyTooLarge { throw FirebaseError.bodyTooLarge }
      let body = try perform(route, request)
      return respond(request, status: 200, body)
    } catch let error as FirebaseError {
      return respond(request, status: error.httpStatus, error.json)
    } catch {
      let failure = FirebaseError.internalError("INTERNAL : ((\(error)))")
      return respond(request, status: failure.httpStatus, failure.json)
    }
  }

  private func perform(_ route: FirebaseRoute, _ request: ServerRequest) throws -> JSON {
    switch route {
    case .readiness:
      return [
        "authEmulator": [
          "ready": true, "docs": "https://firebase.google.com/docs/emulator-suite",
          "apiSpec": "/emulator/openapi.json",
        ]
      ]
    case .identityToolkit(let operation, let pathProject, let pathTenant):
      let privileged = try authenticate(request, apiKeyAllowed: operation.acceptsAPIKey)
      return try run(
        operation, request: request, privileged: privileged, pathProject: pathProject, pathTenant: pathTenant)
    case .secureToken:
      guard apiKey(request) != nil else { throw FirebaseError.missingAPIKey }
      return try secureToken.grantToken(FirebaseBody.parse(request, allowForm: true))
    case .emulator(let endpoint, let projectId):
      return try emulator.emulatorEndpoint(endpoint, projectId: projectId, request: request)
    case .notFound, .action, .handler:
      throw FirebaseError.notFound
    }
  }

  // MARK: - Authentication (`server.ts` apiKey / Oauth2 authenticators)

  private func apiKey(_ request: ServerRequest) -> String? {
    if let key = request.query("key"), !key.isEmpty { return key }
    if let key = request.header("x-goog-api-key"), !key.isEmpty { return key }
    return nil
  }

  /// True for `Bearer owner` (any case) or a `ya29.` token; any other Bearer is 401. Without a
  /// Bearer an API key is needed (403 without one).
  private func authenticate(_ request: ServerRequest, apiKeyAllowed: Bool) throws -> Bool {
    if let authorization = request.header("Authorization"), authorization.lowercased().hasPrefix("bearer ") {
      let token = String(authorization.dropFirst("bearer ".count))
      if token.lowercased() == "owner" || token.hasPrefix("ya29.") { return true }
      throw FirebaseError.invalidCredentials
    }
    guard apiKeyAllowed else { throw FirebaseError.missingCredentials }
    guard apiKey(request) != nil else { throw FirebaseError.missingAPIKey }
    return false
  }

  // MARK: - Responses

  private func respond(_ request: ServerRequest, status: Int, _ body: JSON) -> ServerResponse {
    var headers: [(name: String, value: String)] = [("Content-Type", "application/json; charset=utf-8")]
    if let origin = request.header("Origin") {
      headers.append(("Access-Control-Allow-Origin", origin))
      headers.append(("Vary", "Origin"))
    }
    return ServerResponse(status: status, headers: headers, body: Array(body.prettyText.utf8))
  }

  /// CORS preflight: every origin and requested header is allowed (`cors({origin: true})`).
  private func preflight(_ request: ServerRequest) -> ServerResponse {
    var headers: [(name: String, value: String)] = [
      ("Access-Control-Allow-Origin", request.header("Origin") ?? "*"),
      ("Access-Control-Allow-Methods", "GET,HEAD,PUT,PATCH,POST,DELETE"),
      ("Vary", "Origin, Access-Control-Request-Headers"),
    ]
    if let requested = request.header("Access-Control-Request-Headers") {
      headers.append(("Access-Control-Allow-Headers", requested))
    }
    if request.header("Access-Control-Request-Private-Network") != nil {
      headers.append(("Access-Control-Allow-Private-Network", "true"))
    }
    return ServerResponse(status: 204, headers: headers)
  }
}
