import AuthCore
import Essentials
import JSONKit

/// The requests of `FirebaseAdminProvider`: URLs, the OAuth bearer, and the answers' checks.
extension FirebaseAdminProvider {
  /// `POST …/accounts:lookup`; nil when the answer has no `users` (no such account). An answer
  /// that is not an object, or whose `users` is not a list, proves nothing: `malformed_response`.
  func lookup(_ body: JSON) async throws -> AdminUser? {
    let (json, response) = try await post("accounts:lookup", body, as: .lookup)
    guard json.object != nil else { throw WireBody.missing("users", in: response) }
    guard let users = json["users"], !users.isNull else { return nil }
    guard let list = users.array else { throw WireBody.missing("users", in: response) }
    guard let record = list.first else { return nil }
    return try FirebaseAdminDecoding.user(record, response: response)
  }

  /// `GET …/accounts:batchGet?maxResults=N&nextPageToken=T` (the Admin SDKs' `listUsers`).
  func batchGet(maxResults: Int, pageToken: String?) async throws -> (users: [AdminUser], next: String?) {
    var items = [URLQueryItem(name: "maxResults", value: String(maxResults))]
    if let pageToken { items.append(URLQueryItem(name: "nextPageToken", value: pageToken)) }
    let url = try projectURL("accounts:batchGet", query: items)
    let (json, response) = try await send("GET", url, body: nil, as: .list)
    let records = json["users"]?.array ?? []
    let users = try records.map { try FirebaseAdminDecoding.user($0, response: response) }
    let next = json["nextPageToken"]?.string.flatMap { $0.isEmpty ? nil : $0 }
    return (users, next)
  }

  /// The number of accounts (`accounts:query` with `returnUserInfo: false`); nil when not told.
  func count() async -> Int? {
    guard let (json, _) = try? await post("accounts:query", ["returnUserInfo": false], as: .list) else { return nil }
    return json["recordsCount"]?.intOrNumericString
  }

  /// `POST …/accounts:update` with `localId`, then the account as it is now.
  func update(_ user: AdminUser, _ fields: JSON) async throws -> AdminUser {
    var body = JSONObject([("localId", .string(user.id))])
    for (key, value) in fields.object?.pairs ?? [] { body[key] = value }
    _ = try await post("accounts:update", .object(body), as: .update)
    guard let updated = try await lookup(["localId": .array([.string(user.id)])]) else {
      throw AuthError(.userNotFound, message: "No account for \(user.email.isEmpty ? user.id : user.email).")
    }
    return updated
  }

  func post(_ name: String, _ body: JSON, as call: FirebaseAdminErrors.Call) async throws -> (JSON, HTTPResponse) {
    try await send("POST", try projectURL(name), body: body, as: call)
  }

  func send(_ method: String, _ url: URL, body: JSON?, as call: FirebaseAdminErrors.Call) async throws -> (
    JSON, HTTPResponse
  ) {
    let token = try await tokens.accessToken()
    var headers = [("Authorization", "Bearer " + token), ("Accept", "application/json")]
    if let quotaProject = tokens.quotaProject { headers.append(("X-Goog-User-Project", quotaProject)) }
    if body != nil { headers.append(("Content-Type", "application/json")) }
    let response = try await client.send(method, url, headers: headers, body: body?.bytes)
    guard response.status == 200 else {
      throw FirebaseAdminErrors.error(from: response, call: call, principal: principal, projectId: projectId ?? "?")
    }
    let json = try WireBody.json(response)
    guard json.object != nil else { throw WireBody.missing("object", in: response) }
    return (json, response)
  }

  /// `{base}/projects/{id}/NAME` (`accounts` for sign-up, `accounts:lookup`, …), or
  /// `{base}/projects/{id}/tenants/{tenant}/NAME` for a tenant's users.
  func projectURL(_ name: String, query: [URLQueryItem] = []) throws -> URL {
    let project = try requireProject()
    let tenantPath = tenantId.map { "/tenants/" + Self.pathSegment($0) } ?? ""
    let path = endpoint + "/projects/" + Self.pathSegment(project) + tenantPath + "/" + name
    guard var components = URLComponents(string: path) else { throw invalidURL }
    if !query.isEmpty { components.queryItems = query }
    guard let url = components.url else { throw invalidURL }
    return url
  }

  /// The v2 project config (`…/projects/{id}/config`), or a tenant's settings
  /// (`…/projects/{id}/tenants/{tenant}`): production's `admin/v2`, an emulator's `v2`.
  func configURL() throws -> URL {
    let project = Self.pathSegment(try requireProject())
    let resource = tenantId.map { "/tenants/" + Self.pathSegment($0) } ?? "/config"
    let base: String
    if let host = emulatorHost {
      base = "http://\(host)/identitytoolkit.googleapis.com/v2"
    } else if endpoint.hasSuffix("/v1") {
      base = String(endpoint.dropLast(3)) + "/admin/v2"
    } else {
      base = "https://identitytoolkit.googleapis.com/admin/v2"
    }
    guard let url = URL(string: base + "/projects/" + project + resource) else { throw invalidURL }
    return url
  }

  func requireProject() throws -> String {
    guard let projectId, !projectId.isEmpty else {
      throw AuthError(
        .configError, message: "Firebase admin commands need the project id.",
        hint:
          "Set FIREBASE_PROJECT_ID (or project_id in the profile), or use a service-account file that names its project_id."
      )
    }
    return projectId
  }

  static func pathSegment(_ text: String) -> String {
    text.percentEncoded(keeping: "-._~")
  }

  var invalidURL: AuthError {
    AuthError(.configError, message: "The Firebase endpoint '\(endpoint)' is not a valid URL.")
  }
}
