import AuthCore
import Essentials
import JSONKit

/// Supabase Auth (GoTrue) over its REST API.
package struct SupabaseProvider: AuthProvider {
  package let kind = ProviderKind.supabase
  /// The Auth API base, e.g. `https://abcd.supabase.co/auth/v1`.
  package let endpoint: String
  let apiKey: String
  let client: WireClient
  let clock: any Clock

  package init(
    target: Target, transport: any HTTPTransport, clock: any Clock, trace: (@Sendable (String) -> Void)?,
    secrets: (@Sendable (String) -> Void)? = nil
  ) {
    endpoint = target.url
    apiKey = target.key
    client = WireClient(
      transport: transport, timeout: target.timeout, allowInsecureHTTP: target.allowInsecureHTTP, trace: trace,
      secrets: secrets)
    self.clock = clock
  }

  package func signUp(email: String, password: String, name: String?) async throws -> SignUpOutcome {
    try Self.checkBcryptLimit(password)
    var data = JSONObject()
    if let name {
      data["first_name"] = .string(name.split(separator: " ").first.map(String.init) ?? name)
      data["full_name"] = .string(name)
    }
    let body: JSON = ["email": .string(email), "password": .string(password), "data": .object(data)]
    let (json, response) = try await call("POST", "/signup", body: body, as: .signUp)
    if GoTrueDecoding.isSession(json) {
      return .signedIn(try GoTrueDecoding.session(json, response: response, now: clock.unixNow))
    }
    // A bare user: confirmation required. An empty `identities` array is GoTrue's obfuscated answer
    // for an address that already has a confirmed account (GoTrue hides that the address exists).
    let user = try GoTrueDecoding.user(json, response: response)
    let obfuscated = json["identities"]?.array?.isEmpty == true
    return .confirmationSent(user, obfuscated: obfuscated)
  }

  package func signIn(email: String, password: String) async throws -> AuthSession {
    let body: JSON = ["email": .string(email), "password": .string(password)]
    let (json, response) = try await call(
      "POST", "/token", query: [("grant_type", "password")], body: body, as: .signIn)
    return try GoTrueDecoding.session(json, response: response, now: clock.unixNow)
  }

  package func sendPasswordReset(email: String) async throws {
    try await sendPasswordReset(email: email, pkce: nil)
  }

  package func confirmPasswordReset(codeOrLink: String, email: String?, newPassword: String) async throws -> AuthSession
  {
    try Self.checkBcryptLimit(newPassword)
    let body = try verifyBody(codeOrLink: codeOrLink, email: email)
    let (json, response) = try await call("POST", "/verify", body: body, as: .verify)
    return try await setNewPassword(
      newPassword, in: try GoTrueDecoding.session(json, response: response, now: clock.unixNow))
  }

  /// `PUT /user` with the new password, in the session the reset link gave.
  func setNewPassword(_ newPassword: String, in verified: AuthSession) async throws -> AuthSession {
    var session = verified
    do {
      let (userJSON, userResponse) = try await call(
        "PUT", "/user", body: ["password": .string(newPassword)], bearer: session.accessToken, as: .other)
      session.user = try GoTrueDecoding.user(userJSON, response: userResponse)
    } catch var error as AuthError where error.code == .samePassword {
      // /verify has consumed the link: the same link cannot be tried again with another password.
      error.message = "The new password must be different from the current one. This reset link has now been used."
      let address = session.user.email.isEmpty ? "EMAIL" : session.user.email
      error.hint = "Request a new link with `authsh reset \(address)` and choose a different password."
      throw error
    }
    return session
  }

  /// GoTrue hashes passwords with bcrypt, which reads at most 72 bytes; longer ones are refused
  /// by the server. Checked before sending, in bytes (an accented letter is 2, an emoji 4).
  static let bcryptLimitBytes = 72

  static func checkBcryptLimit(_ password: String) throws {
    guard password.utf8.count > bcryptLimitBytes else { return }
    let message = "Password must be at most \(bcryptLimitBytes) bytes"
    throw AuthError(
      .validationFailed, message: message, fields: [FieldError(.password, code: "password_too_long", message: message)],
      hint:
        "Supabase stores passwords with bcrypt, which reads at most 72 bytes (accented letters take 2 bytes, emoji 4).")
  }

  /// `{type: recovery, token_hash}` for a mailed link or hash; `{type, email, token}` for a typed code.
  func verifyBody(codeOrLink: String, email: String?) throws -> JSON {
    if let components = URLComponents(string: codeOrLink), components.scheme != nil,
      let items = components.queryItems
    {
      guard let hash = items.first(where: { $0.name == "token_hash" || $0.name == "token" })?.value, !hash.isEmpty
      else {
        throw AuthError(.invalidCode)
      }
      return ["type": "recovery", "token_hash": .string(hash)]
    }
    if codeOrLink.count >= 6, codeOrLink.count <= 10, codeOrLink.allSatisfy(\.isNumber) {
      guard let email, !email.isEmpty else {
        throw AuthError(
          .validationFailed, message: "Email is required",
          fields: [FieldError(.email, code: "email_required", message: "Email is required")],
          hint: "A 6-digit code needs the address it was sent to: --email EMAIL")
      }
      return ["type": "recovery", "email": .string(email.lowercased()), "token": .string(codeOrLink)]
    }
    if codeOrLink.count == 56, codeOrLink.allSatisfy(\.isHexDigit) {
      return ["type": "recovery", "token_hash": .string(codeOrLink.lowercased())]
    }
    throw AuthError(.invalidCode)
  }

  package func user(of session: AuthSession) async throws -> AuthUser {
    let (json, response) = try await call("GET", "/user", bearer: session.accessToken, as: .user)
    return try GoTrueDecoding.user(json, response: response)
  }

  package func refresh(_ session: AuthSession) async throws -> AuthSession {
    let body: JSON = ["refresh_token": .string(session.refreshToken)]
    let answer: (JSON, HTTPResponse)
    do {
      answer = try await call("POST", "/token", query: [("grant_type", "refresh_token")], body: body, as: .refresh)
    } catch let error as AuthError where error.status == 409 && error.providerCode == "conflict" {
      // Another refresh of this session held the server's lock for 5 s: one more try.
      answer = try await call("POST", "/token", query: [("grant_type", "refresh_token")], body: body, as: .refresh)
    }
    return try GoTrueDecoding.session(answer.0, response: answer.1, now: clock.unixNow)
  }

  package func signOut(_ session: AuthSession, scope: LogoutScope) async throws {
    _ = try await call("POST", "/logout", query: [("scope", scope.rawValue)], bearer: session.accessToken, as: .logout)
  }

  /// The URL as configured (the Auth base without `/auth/v1`).
  var projectURL: String { endpoint.hasSuffix("/auth/v1") ? String(endpoint.dropLast("/auth/v1".count)) : endpoint }

  package func latestMail(to email: String) async throws -> InboxMessage? {
    return try await EmulatorOutbox(client: client).latest(origin: projectURL, email: email, side: "supabase")
  }

  /// One GoTrue call: headers of the official clients, JSON in and out, errors mapped.
  func call(
    _ method: String, _ path: String, query: [(String, String)] = [], body: JSON? = nil, bearer: String? = nil,
    as kind: GoTrueErrorMapping.Call
  ) async throws -> (JSON, HTTPResponse) {
    if let problem = EndpointCheck.problem(projectURL, what: "The Supabase URL") { throw problem }
    guard let url = RequestURL.make(endpoint + path, query: query.map { URLQueryItem(name: $0.0, value: $0.1) }) else {
      throw AuthError(.configError, message: "The Supabase URL '\(endpoint)' is not a valid URL.")
    }
    var headers: [(String, String)] = [
      ("apikey", apiKey), ("Authorization", "Bearer " + (bearer ?? apiKey)),
      ("X-Supabase-Api-Version", "2024-01-01"), ("X-Client-Info", "authsh/\(AuthshVersion.current)"),
      ("Accept", "application/json"),
    ]
    if body != nil { headers.append(("Content-Type", "application/json;charset=UTF-8")) }
    let response = try await client.send(method, url, headers: headers, body: body?.bytes)
    guard (200..<300).contains(response.status) else { throw GoTrueErrorMapping.error(from: response, call: kind) }
    if response.status == 204 || response.body.isEmpty { return (.object(JSONObject()), response) }
    let json = try WireBody.json(response)
    guard json.object != nil else { throw WireBody.missing("object", in: response) }
    return (json, response)
  }
}
