import AuthCore
import Essentials
import JSONKit

/// Firebase Authentication over Identity Toolkit v1 and Secure Token. With an emulator host it targets
/// `http://HOST/identitytoolkit.googleapis.com/v1`, as the official SDKs do.
package struct FirebaseProvider: AuthProvider {
  package let kind = ProviderKind.firebase
  package let endpoint: String
  let secureTokenBase: String
  let emulatorHost: String?
  let projectId: String?
  /// Sent as `tenantId` on every Identity Toolkit call (Identity Platform tenants).
  let tenantId: String?
  let apiKey: String
  let client: WireClient
  let clock: any Clock

  package init(
    target: Target, transport: any HTTPTransport, clock: any Clock, trace: (@Sendable (String) -> Void)?,
    secrets: (@Sendable (String) -> Void)? = nil
  ) {
    endpoint = target.url
    emulatorHost = target.firebaseEmulatorHost
    secureTokenBase =
      target.firebaseEmulatorHost.map { "http://\($0)/securetoken.googleapis.com/v1" }
      ?? "https://securetoken.googleapis.com/v1"
    projectId = target.projectId
    tenantId = target.tenantId
    apiKey = target.key
    client = WireClient(
      transport: transport, timeout: target.timeout, allowInsecureHTTP: target.allowInsecureHTTP, trace: trace,
      secrets: secrets)
    self.clock = clock
  }

  package func signUp(email: String, password: String, name: String?) async throws -> SignUpOutcome {
    let body: JSON = ["email": .string(email), "password": .string(password), "returnSecureToken": true]
    let (json, response) = try await accounts("signUp", body, as: .signUp)
    var session = try IdentityToolkitDecoding.session(json, response: response, now: clock.unixNow)
    if let name, !name.isEmpty {
      let update: JSON = [
        "idToken": .string(session.accessToken), "displayName": .string(name), "returnSecureToken": true,
      ]
      let (updated, updateResponse) = try await accounts("update", update, as: .update)
      if updated["idToken"]?.string != nil {
        session = try IdentityToolkitDecoding.session(
          updated, response: updateResponse, now: clock.unixNow, previous: session.user)
      }
      session.user.name = updated["displayName"]?.string ?? name
    }
    return .signedIn(session)
  }

  /// A password sign-in that cannot take a second step: an account with one is `mfa_required`.
  package func signIn(email: String, password: String) async throws -> AuthSession {
    switch try await beginSignIn(email: email, password: password) {
    case .signedIn(let session): return session
    case .secondFactorDue: throw AuthError(.mfaRequired)
    }
  }

  package func sendPasswordReset(email: String) async throws {
    _ = try await accounts("sendOobCode", ["requestType": "PASSWORD_RESET", "email": .string(email)], as: .sendOobCode)
  }

  package func confirmPasswordReset(codeOrLink: String, email: String?, newPassword: String) async throws -> AuthSession
  {
    var code = codeOrLink
    if let components = URLComponents(string: codeOrLink), components.scheme != nil {
      guard let value = components.queryItems?.first(where: { $0.name == "oobCode" })?.value, !value.isEmpty else {
        throw AuthError(.invalidCode)
      }
      code = value
    }
    let (json, _) = try await accounts(
      "resetPassword", ["oobCode": .string(code), "newPassword": .string(newPassword)], as: .resetPassword)
    guard let address = json["email"]?.string ?? email else {
      throw AuthError(.malformedResponse, detail: "resetPassword did not say which account changed")
    }
    return try await signIn(email: address, password: newPassword)
  }

  package func user(of session: AuthSession) async throws -> AuthUser {
    let (json, response) = try await accounts("lookup", ["idToken": .string(session.accessToken)], as: .lookup)
    guard let record = json["users"]?[0] else { throw AuthError(.sessionExpired, providerCode: "USER_NOT_FOUND") }
    return try IdentityToolkitDecoding.user(record, response: response)
  }

  package func refresh(_ session: AuthSession) async throws -> AuthSession {
    guard let url = url(secureTokenBase + "/token") else { throw invalidURL }
    let form = "grant_type=refresh_token&refresh_token=" + FormEncoding.encode(session.refreshToken)
    let response = try await client.send(
      "POST", url, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
      body: Array(form.utf8))
    guard response.status == 200 else { throw IdentityToolkitErrorMapping.error(from: response, call: .refresh) }
    let json = try WireBody.json(response)
    return try IdentityToolkitDecoding.session(json, response: response, now: clock.unixNow, previous: session.user)
  }

  /// Firebase has no server-side sign-out for a client: the tokens are forgotten locally.
  package func signOut(_ session: AuthSession, scope: LogoutScope) async throws {}

  package func latestMail(to email: String) async throws -> InboxMessage? {
    guard let host = emulatorHost else { throw EmulatorOutbox.notAnEmulator }
    let outbox = EmulatorOutbox(client: client)
    do {
      return try await outbox.latest(origin: "http://\(host)", email: email, side: "firebase")
    } catch let error as AuthError where error.code == .notSupported {
      return try await officialEmulatorCode(host: host, email: email)
    }
  }

  /// The official emulator's `GET /emulator/v1/projects/{id}/oobCodes`, or `verificationCodes`
  /// for a phone number (`+15551234567`).
  func officialEmulatorCode(host: String, email: String) async throws -> InboxMessage? {
    guard let projectId else {
      throw AuthError(
        .configError, message: "inbox needs the Firebase project id here.", hint: "Set FIREBASE_PROJECT_ID.")
    }
    let tenantPath = tenantId.map { "/tenants/" + FirebaseAdminProvider.pathSegment($0) } ?? ""
    let isPhone = email.hasPrefix("+")
    let list = isPhone ? "verificationCodes" : "oobCodes"
    guard let url = url("http://\(host)/emulator/v1/projects/\(projectId)\(tenantPath)/\(list)") else {
      throw invalidURL
    }
    let response = try await client.send("GET", url, headers: [("Accept", "application/json")])
    guard response.status == 200 else { throw WireBody.serverError(response) }
    let json = try WireBody.json(response)
    if isPhone {
      let codes = json["verificationCodes"]?.array ?? []
      guard let last = codes.last(where: { $0["phoneNumber"]?.string == email }) else { return nil }
      return InboxMessage(kind: "sms", code: last["code"]?.string ?? "", link: "", email: email)
    }
    let codes = json["oobCodes"]?.array ?? []
    guard let last = codes.last(where: { $0["email"]?.string?.lowercased() == email.lowercased() }) else { return nil }
    return InboxMessage(
      kind: MailKind.neutral(last["requestType"]?.string ?? ""), code: last["oobCode"]?.string ?? "",
      link: last["oobLink"]?.string ?? "", email: last["email"]?.string ?? email)
  }

  /// `POST {base}/accounts:NAME?key=KEY` with a JSON body (never a Bearer header: the emulator
  /// would treat it as an admin call), with `tenantId` when a tenant is set (as the client SDKs
  /// add it to every call).
  func accounts(_ name: String, _ body: JSON, as call: IdentityToolkitErrorMapping.Call, base: String? = nil)
    async throws
    -> (JSON, HTTPResponse)
  {
    let separator = base == nil ? "/accounts:" : "/accounts/"
    guard let url = url((base ?? endpoint) + separator + name) else { throw invalidURL }
    var body = body
    if let tenantId, case .object(var object) = body {
      object["tenantId"] = .string(tenantId)
      body = .object(object)
    }
    let response = try await client.send(
      "POST", url, headers: [("Content-Type", "application/json"), ("Accept", "application/json")], body: body.bytes)
    guard response.status == 200 else { throw IdentityToolkitErrorMapping.error(from: response, call: call) }
    let json = try WireBody.json(response)
    guard json.object != nil else { throw WireBody.missing("object", in: response) }
    return (json, response)
  }

  func url(_ base: String) -> URL? {
    RequestURL.make(base, query: [URLQueryItem(name: "key", value: apiKey)])
  }

  var invalidURL: AuthError {
    AuthError(.configError, message: "The Firebase endpoint '\(endpoint)' is not a valid URL.")
  }
}
