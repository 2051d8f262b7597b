import AuthCore
import AuthTestSupport
import Foundation
import HTTPServerKit
import JSONKit
import NIOTransport
import Providers
import Testing

/// Application Default Credentials of a user (refresh-token grant) and impersonation (IAM
/// Credentials `generateAccessToken`) against loopback stand-ins of Google's endpoints that check
/// what they receive.
@Suite struct GoogleUserCredentialTests {
  static let clientSecret = "d-FL95Q19q7MQmFpd7hHD0Ty"
  static let refreshToken = "1//0gUser-refresh-token-secret"

  final class Google: TestService {
    let server = FixtureServer()
    private let grantsSeen = Guarded<[[String: String]]>([])
    private let impersonationsSeen = Guarded<[(authorization: String?, body: JSON)]>([])
    var grants: [[String: String]] { grantsSeen[\.self] }
    var impersonations: [(authorization: String?, body: JSON)] { impersonationsSeen[\.self] }

    init() async throws {
      try await server.start()
      server.on("POST", "/token") { [weak self] request in
        let form = Dictionary(
          FormCoding.decode(String(decoding: request.body, as: UTF8.self)).map { ($0.name, $0.value) }
        ) { a, _ in a }
        self?.grantsSeen.update { $0.append(form) }
        guard request.header("Content-Type") == "application/x-www-form-urlencoded",
          form["grant_type"] == "refresh_token",
          form["client_id"] == "client-1.apps.googleusercontent.com",
          form["client_secret"] == GoogleUserCredentialTests.clientSecret,
          form["refresh_token"] == GoogleUserCredentialTests.refreshToken
        else {
          return ServerResponse(
            status: 400, headers: [("Content-Type", "application/json")],
            body: Array(#"{"error":"invalid_grant","error_description":"Token has been expired or revoked."}"#.utf8))
        }
        return ServerResponse(
          status: 200, headers: [("Content-Type", "application/json")],
          body: Array(
            #"{"access_token":"ya29.user-token","expires_in":3599,"scope":"https://www.googleapis.com/auth/cloud-platform","token_type":"Bearer"}"#
              .utf8))
      }
      server.on("POST", "/v1/projects/-/serviceAccounts/authsh@demo-prod.iam.gserviceaccount.com:generateAccessToken") {
        [weak self] request in
        let body = (try? JSON.parse(bytes: request.body)) ?? .null
        self?.impersonationsSeen.update { $0.append((request.header("Authorization"), body)) }
        guard request.header("Authorization") == "Bearer ya29.user-token" else {
          return ServerResponse(
            status: 403, headers: [("Content-Type", "application/json")],
            body: Array(
              #"{"error":{"code":403,"message":"Permission 'iam.serviceAccounts.getAccessToken' denied","status":"PERMISSION_DENIED"}}"#
                .utf8))
        }
        let expiry = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3600))
        return ServerResponse(
          status: 200, headers: [("Content-Type", "application/json")],
          body: Array(#"{"accessToken":"ya29.impersonated-token","expireTime":"\#(expiry)"}"#.utf8))
      }
    }

    var user: AuthorizedUser {
      AuthorizedUser(
        clientId: "client-1.apps.googleusercontent.com", clientSecret: GoogleUserCredentialTests.clientSecret,
        refreshToken: GoogleUserCredentialTests.refreshToken, quotaProjectId: "demo-prod",
        tokenURI: server.baseURL + "/token",
        path: "/home/ada/.config/gcloud/application_default_credentials.json")
    }

    var impersonated: ImpersonatedServiceAccount {
      let url =
        server.baseURL + "/v1/projects/-/serviceAccounts/authsh@demo-prod.iam.gserviceaccount.com:generateAccessToken"
      return ImpersonatedServiceAccount(
        source: .authorizedUser(user), impersonationURL: url,
        targetPrincipal: "authsh@demo-prod.iam.gserviceaccount.com",
        delegates: ["projects/-/serviceAccounts/hop@demo-prod.iam.gserviceaccount.com"], path: "/keys/impersonate.json")
    }

    func stop() async { await server.stop() }
  }

  @Test("authorized_user: the refresh-token grant, one exchange for many calls, secrets to the redactor")
  func refreshTokenGrant() async throws {
    try await withStarted(Google()) { google throws in
      let secrets = Guarded<[String]>([])
      let source = GoogleTokenSource(
        grant: .authorizedUser(google.user), transport: NIOHTTPTransport(), clock: SystemClock(),
        secrets: { secret in secrets.update { $0.append(secret) } })
      for _ in 0..<10 { #expect(try await source.accessToken() == "ya29.user-token") }
      #expect(google.grants.count == 1)
      #expect(source.quotaProject == "demo-prod")
      #expect(Set(secrets[\.self]).isSuperset(of: [Self.clientSecret, Self.refreshToken, "ya29.user-token"]))
    }
  }

  @Test("a revoked refresh token says to log in again with gcloud, naming the file, never the token")
  func revokedRefreshToken() async throws {
    try await withStarted(Google()) { google in
      var user = google.user
      user.refreshToken = "1//0gRevoked"
      let source = GoogleTokenSource(grant: .authorizedUser(user), transport: NIOHTTPTransport(), clock: SystemClock())
      let error = try await #require(throws: AuthError.self) { try await source.accessToken() }
      #expect(error.code == .configError && error.message.contains("expired or was revoked"))
      #expect(
        error.message.contains(user.path) && error.hint?.contains("gcloud auth application-default login") == true)
      #expect(!error.message.contains("1//0g") && !(error.hint ?? "").contains("1//0g"))
    }
  }

  @Test("impersonation: the source token buys the target's token from generateAccessToken; delegates and scopes sent")
  func impersonation() async throws {
    try await withStarted(Google()) { google in
      let source = GoogleTokenSource(
        grant: .impersonated(google.impersonated), transport: NIOHTTPTransport(), clock: SystemClock())
      for _ in 0..<5 { #expect(try await source.accessToken() == "ya29.impersonated-token") }
      #expect(google.grants.count == 1 && google.impersonations.count == 1)
      let body = try #require(google.impersonations.first?.body)
      #expect(body["delegates"] == ["projects/-/serviceAccounts/hop@demo-prod.iam.gserviceaccount.com"])
      #expect(body["lifetime"] == "3600s")
      #expect(body["scope"]?.array?.contains("https://www.googleapis.com/auth/identitytoolkit") == true)
    }
  }

  @Test("impersonation refused: the Service Account Token Creator role is named")
  func impersonationRefused() async throws {
    try await withStarted(Google()) { google in
      // The source credential gets a token the IAM stand-in does not accept.
      google.server.on("POST", "/token", status: 200, json: #"{"access_token":"ya29.other","expires_in":3599}"#)
      let source = GoogleTokenSource(
        grant: .impersonated(google.impersonated), transport: NIOHTTPTransport(), clock: SystemClock())
      let error = try await #require(throws: AuthError.self) { try await source.accessToken() }
      #expect(error.code == .configError && error.status == 403)
      #expect(error.hint?.contains("roles/iam.serviceAccountTokenCreator") == true)
    }
  }

  @Test("admin calls with user credentials carry X-Goog-User-Project (the quota project)")
  func quotaProjectHeader() async throws {
    try await withStarted(Google()) { google in
      google.server.on(
        "POST", "/identitytoolkit.googleapis.com/v1/projects/demo-prod/accounts:lookup", status: 200,
        json: #"{"kind":"identitytoolkit#GetAccountInfoResponse"}"#)
      let target = Target(
        provider: .firebase, profile: "p", url: google.server.baseURL + "/identitytoolkit.googleapis.com/v1", key: "k",
        projectId: nil, allowInsecureHTTP: true)
      let admin = AdminProviderFactory.make(
        target, credential: .firebaseAuthorizedUser(google.user), transport: NIOHTTPTransport())
      #expect(try await admin.user(.email("ada@example.com")) == nil)
      let lookup = try #require(google.server.requests.last { $0.path.hasSuffix("accounts:lookup") })
      #expect(lookup.header("Authorization") == "Bearer ya29.user-token")
      #expect(lookup.header("X-Goog-User-Project") == "demo-prod")
    }
  }
}
