import Crypto
import Essentials
import HTTPServerKit
import JSONKit

/// A browser sign-in with a social provider, as production runs it for an app without the web
/// SDK: `accounts:createAuthUri {providerId, continueUri}` answers the provider's address
/// (`authUri`) and a `sessionId`; the browser comes back to `continueUri` with the provider's
/// answer, which `accounts:signInWithIdp {requestUri, sessionId}` trades for the session. Here
/// the provider is a page of the emulator (`/emulator/auth/handler`, where the official
/// emulator's widget lives): it returns to `continueUri` with an unsigned `id_token`, which
/// `signInWithIdp` reads as the official emulator does.
struct FirebaseOAuthRoutes: Sendable {
  let context: FirebaseContext

  static let handlerPath = "/emulator/auth/handler"

  /// Providers whose sign-in the page plays (`providerId` of `createAuthUri`).
  static let oauthProviders: Set<String> = [
    "google.com", "facebook.com", "github.com", "twitter.com", "apple.com", "microsoft.com", "yahoo.com",
    "linkedin.com", "playgames.google.com", "gc.apple.com",
  ]

  /// `createAuthUri` with a `providerId`: the provider's address for this flow.
  func createProviderAuthUri(_ call: FirebaseCall, providerId: String, sessionId: String) throws -> JSON {
    guard let continueUri = call.body.truthy("continueUri") else { throw FirebaseError.bad("MISSING_CONTINUE_URI") }
    try require(FirebaseRules.isAbsoluteURI(continueUri), "INVALID_CONTINUE_URI")
    guard Self.oauthProviders.contains(providerId) else {
      throw FirebaseError.bad("INVALID_PROVIDER_ID : Provider Id is not supported.")
    }
    let host = call.request.header("Host") ?? "\(context.config.host):\(context.config.port)"
    let query = [
      ("providerId", providerId), ("continueUri", continueUri), ("sessionId", sessionId), ("project", call.projectId),
    ].map { "\($0.0)=\($0.1.percentEncoded(keeping: "-._~"))" }.joined(separator: "&")
    return [
      "kind": "identitytoolkit#CreateAuthUriResponse", "authUri": .string("http://\(host)\(Self.handlerPath)?\(query)"),
      "providerId": .string(providerId), "sessionId": .string(sessionId),
    ]
  }

  /// `GET` the provider's page, `POST` the account chosen on it.
  func oauthHandler(_ request: ServerRequest) -> ServerResponse {
    let values: [String: String]
    if request.method == "POST" {
      if OAuthProviderPage.isCrossSite(request) {
        return .text(403, "A sign-in can only be chosen on the emulator's own page.")
      }
      values = OAuthProviderPage.form(request)
    } else {
      values = Dictionary(
        ["providerId", "continueUri", "sessionId", "project"].compactMap { key in request.query(key).map { (key, $0) }
        },
        uniquingKeysWith: { first, _ in first })
    }
    let providerId = values["providerId"] ?? ""
    let continueUri = values["continueUri"] ?? ""
    let project = values["project"] ?? context.state.defaultProjectId
    guard Self.oauthProviders.contains(providerId), FirebaseRules.isAbsoluteURI(continueUri),
      !continueUri.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
    else {
      return .text(400, "This page is reached from accounts:createAuthUri (a providerId and a continueUri).")
    }
    let back = continueUri.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
    func returning(_ pairs: [(String, String)]) -> String {
      let query = pairs.map { "\($0.0)=\($0.1.percentEncoded(keeping: "-._~"))" }.joined(separator: "&")
      return back + (back.contains("?") ? "&" : "?") + query
    }
    guard request.method == "POST" else {
      let accounts = context.state.with(project) { project in
        project.users.values.compactMap { user -> OAuthProviderPage.Account? in
          guard let info = user.federated.first(where: { $0.providerId == providerId }) else { return nil }
          return OAuthProviderPage.Account(
            subject: info.rawId, email: info.email ?? user.email ?? "", name: info.displayName ?? user.displayName)
        }.sorted { $0.email < $1.email }
      }
      return OAuthProviderPage(
        provider: providerId, returnsTo: String(back), accounts: accounts, action: Self.handlerPath,
        fields: [
          ("providerId", providerId), ("continueUri", continueUri), ("sessionId", values["sessionId"] ?? ""),
          ("project", project),
        ],
        cancel: returning([
          ("providerId", providerId), ("error", "access_denied"), ("error_description", "The user cancelled"),
        ])
      ).response
    }
    let email = (values["email"] ?? "").trimming { $0.properties.isWhitespace }
    guard FirebaseRules.isValidEmail(email) else { return .text(400, "An account needs an e-mail address.") }
    let name = (values["name"] ?? "").trimming { $0.properties.isWhitespace }
    let given = values["sub"] ?? ""
    var claims = JSONObject()
    claims["sub"] = .string(given.isEmpty ? Self.fakeRawId(providerId: providerId, email: email) : given)
    claims["email"] = .string(email)
    claims["email_verified"] = true
    claims["iat"] = .int(Int(context.now.timeIntervalSince1970))
    if !name.isEmpty { claims["name"] = .string(name) }
    let header = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))
    let token = header + "." + Base64URL.encode(JSON.object(claims).bytes) + "."
    return ServerResponse(
      status: 303, headers: [("Location", returning([("providerId", providerId), ("id_token", token)]))])
  }

  /// A stable provider id for an address (the same person gets the same id each time).
  static func fakeRawId(providerId: String, email: String) -> String {
    let digest = SHA256.hash(data: Array((providerId + "\u{0}" + email.lowercased()).utf8))
    return String(("1" + digest.map { String($0) }.joined()).prefix(21))
  }
}
