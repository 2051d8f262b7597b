import AuthCore
import Essentials
import JSONKit

/// The three ways to an access token, as Google's own libraries take them (google-auth:
/// `service_account`, `oauth2.credentials`, `impersonated_credentials`).
extension GoogleTokenSource {
  /// OAuth 2.0 JWT-bearer grant (RFC 7523) with a signed assertion, to the file's `token_uri`.
  static func jwtBearer(_ account: ServiceAccount, scopes: String, _ context: Context) async throws -> Token {
    context.secret(account.privateKeyPEM)
    let url = try tokenURL(account.tokenURI, file: account.path)
    let assertion = try ServiceAccountAssertion(account: account).signed(now: context.clock.now(), scopes: scopes)
    context.secret(assertion)
    let body =
      "grant_type=" + FormEncoding.encode("urn:ietf:params:oauth:grant-type:jwt-bearer") + "&assertion=" + assertion
    let response = try await context.client().send(
      "POST", url, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
      body: Array(body.utf8))
    guard response.status == 200 else {
      throw TokenEndpointErrors.map(response, account: account, now: context.clock.now())
    }
    return try oauthToken(response, context)
  }

  /// OAuth 2.0 refresh-token grant of a user's Application Default Credentials.
  static func refreshTokenGrant(_ user: AuthorizedUser, _ context: Context) async throws -> Token {
    context.secret(user.clientSecret)
    context.secret(user.refreshToken)
    let url = try tokenURL(user.tokenURI, file: user.path)
    let form = [
      ("grant_type", "refresh_token"), ("client_id", user.clientId), ("client_secret", user.clientSecret),
      ("refresh_token", user.refreshToken),
    ]
    let body = form.map { $0.0 + "=" + FormEncoding.encode($0.1) }.joined(separator: "&")
    let response = try await context.client().send(
      "POST", url, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
      body: Array(body.utf8))
    guard response.status == 200 else {
      throw TokenEndpointErrors.mapUser(response, user: user, now: context.clock.now())
    }
    return try oauthToken(response, context)
  }

  /// IAM Credentials `generateAccessToken` with the source credential's token (scope
  /// cloud-platform, as google-auth asks for it), for a one-hour token of the target account.
  static func impersonate(_ impersonated: ImpersonatedServiceAccount, _ context: Context) async throws -> Token {
    let source: Token
    switch impersonated.source {
    case .serviceAccount(let account):
      source = try await jwtBearer(account, scopes: ServiceAccountAssertion.cloudPlatform, context)
    case .authorizedUser(let user): source = try await refreshTokenGrant(user, context)
    }
    guard let url = URL(string: impersonated.impersonationURL), url.host != nil else {
      throw AuthError(
        .configError, message: "The service_account_impersonation_url in \(impersonated.path) is not a URL.",
        hint: "Write the file again: gcloud auth application-default login --impersonate-service-account=EMAIL")
    }
    let scopes = ServiceAccountAssertion.scopes.split(separator: " ").map { JSON.string(String($0)) }
    let body: JSON = [
      "delegates": .array(impersonated.delegates.map(JSON.string)), "scope": .array(scopes),
      "lifetime": .string("\(ServiceAccountAssertion.lifetime)s"),
    ]
    let response = try await context.client().send(
      "POST", url,
      headers: [
        ("Authorization", "Bearer " + source.value), ("Content-Type", "application/json"),
        ("Accept", "application/json"),
      ],
      body: body.bytes)
    guard response.status == 200 else {
      throw TokenEndpointErrors.mapImpersonation(response, impersonated: impersonated)
    }
    let json = try WireBody.json(response)
    guard let token = json["accessToken"]?.string, !token.isEmpty else {
      throw WireBody.missing("accessToken", in: response)
    }
    context.secret(token)
    let now = context.clock.now()
    guard let expiry = json["expireTime"]?.string.flatMap(Timestamps.parse) else {
      throw WireBody.missing("expireTime", in: response)
    }
    return try cacheable(
      token, lifetime: expiry.timeIntervalSince(now), field: "expireTime", response: response, now: now)
  }

  /// `{"access_token": …, "expires_in": 3599}` of a token endpoint.
  static func oauthToken(_ response: HTTPResponse, _ context: Context) throws -> Token {
    let json = try WireBody.json(response)
    guard let token = json["access_token"]?.string, !token.isEmpty else {
      throw WireBody.missing("access_token", in: response)
    }
    context.secret(token)
    let lifetime = TimeInterval(json["expires_in"]?.intOrNumericString ?? ServiceAccountAssertion.lifetime)
    return try cacheable(token, lifetime: lifetime, field: "expires_in", response: response, now: context.clock.now())
  }

  /// A token that has already expired is no answer (0 or negative: every call would exchange
  /// again). A short one is renewed at half its life rather than after the usual margin.
  static func cacheable(_ token: String, lifetime: TimeInterval, field: String, response: HTTPResponse, now: Date)
    throws -> Token
  {
    guard lifetime > 0 else { throw WireBody.missing(field, in: response) }
    let renewIn = max(lifetime - renewalMargin, lifetime / 2)
    return Token(value: token, renewAt: now.addingTimeInterval(renewIn))
  }

  static func tokenURL(_ text: String, file: String) throws -> URL {
    guard let url = URL(string: text), url.host != nil else {
      throw AuthError(
        .configError, message: "The token_uri of the credentials file \(file) is not a URL.",
        hint: "Download the credentials again, or fix token_uri (normally \(ServiceAccountFile.defaultTokenURI)).")
    }
    return url
  }
}
