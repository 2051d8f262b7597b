import Essentials
import HTTPServerKit
import JSONKit

/// A browser sign-in with a social provider, as GoTrue runs it (`external.go`): `GET
/// /auth/v1/authorize?provider=…&redirect_to=…` (with `code_challenge` under PKCE) sends the
/// browser to the provider, here a page of the emulator (`OAuthProviderPage`). The account chosen
/// there comes back as GoTrue's callback does: a new account, or the identity linked to the
/// account of that verified address; then the app's `redirect_to` with `?code=` (PKCE, for `POST
/// /token?grant_type=pkce`) or the session in the fragment (implicit flow).
extension SupabaseAPI {
  static let oauthPagePath = "/emulator/v1/supabase/oauth"

  /// The providers `/authorize` takes: every social one GoTrue names.
  static var oauthProviders: Set<String> { EmulatorSeed.supabaseProviders.subtracting(["email", "phone"]) }

  func authorize(_ request: ServerRequest) throws -> ServerResponse {
    let provider = (request.query("provider") ?? "").lowercased()
    guard Self.oauthProviders.contains(provider) else {
      throw GoTrueError.validation("Unsupported provider: provider is not enabled")
    }
    let pkce = try PKCEChallenge.parse(
      challenge: request.query("code_challenge") ?? "", method: request.query("code_challenge_method") ?? "")
    let target = redirectTarget(request)
    var pairs = [("provider", provider), ("redirect_to", target)]
    if let pkce { pairs += [("code_challenge", pkce.challenge), ("code_challenge_method", pkce.method)] }
    return ServerResponse(status: 302, headers: [("Location", Self.oauthPagePath + "?" + Self.goQueryEncode(pairs))])
  }

  /// The provider's page: this side's accounts with an identity of the provider, and a form.
  func oauthPage(_ request: ServerRequest) throws -> ServerResponse {
    let flow = try OAuthFlow(values: { request.query($0) }, api: self)
    let accounts = state.read { data in
      data.users.values.compactMap { user -> OAuthProviderPage.Account? in
        guard let identity = user.otherIdentities.first(where: { $0.provider == flow.provider }) else { return nil }
        let name = identity.data["full_name"]?.string ?? identity.data["name"]?.string
        return OAuthProviderPage.Account(subject: identity.providerID ?? "", email: user.email, name: name)
      }.sorted { $0.email < $1.email }
    }
    return OAuthProviderPage(
      provider: flow.provider, returnsTo: flow.target, accounts: accounts, action: Self.oauthPagePath,
      fields: flow.fields, cancel: flow.returning(error: GoTrueError.forbidden("access_denied", "The user cancelled"))
    ).response
  }

  /// The account chosen on the page: GoTrue's callback.
  func oauthChoose(_ request: ServerRequest) throws -> ServerResponse {
    if OAuthProviderPage.isCrossSite(request) {
      return .text(403, "A sign-in can only be chosen on the emulator's own page.")
    }
    let form = OAuthProviderPage.form(request)
    let flow = try OAuthFlow(values: { form[$0] }, api: self)
    let now = self.now
    do {
      let email = try GoTrueRules.validateEmail(form["email"] ?? "")
      let name = (form["name"] ?? "").trimming { $0.properties.isWhitespace }
      let given = form["sub"] ?? ""
      let subject = given.isEmpty ? Self.fakeSubject(provider: flow.provider, email: email) : given
      let ip = clientIP(request)
      let traits: JSON = ["provider": .string(flow.provider)]
      let ending = try state.transaction { data -> OAuthEnding in
        let user = try externalUser(
          in: &data, provider: flow.provider, email: email, emailVerified: true, name: name.isEmpty ? nil : name,
          subject: subject, ip: ip, now: now)
        if let pkce = flow.pkce {
          try startFlow(pkce, userID: user.id, method: "oauth", provider: flow.provider, in: &data, now: now)
          return .code(try issueAuthCode(userID: user.id, method: "oauth", in: &data, now: now))
        }
        data.recordAudit("login", user: user, traits: traits, at: now)
        guard let started = startSession(userID: user.id, method: "oauth", in: &data, now: now) else {
          throw GoTrueError.internal("Database error creating session")
        }
        return .session(started.user, started.session, started.refreshToken)
      }
      switch ending {
      case .code(let code):
        return ServerResponse(
          status: 303, headers: [("Location", Self.settingQuery([("code", code)], on: flow.target))])
      case .session(let user, let session, let refreshToken):
        let (accessToken, expiresAt) = accessToken(user: user, session: session, issuer: issuer(for: request), now: now)
        let fragment = [
          ("access_token", accessToken), ("expires_at", String(expiresAt)),
          ("expires_in", String(expiresAt - Int(now / 1_000_000))),
          ("provider_token", "emulator-\(flow.provider)-access-token"), ("refresh_token", refreshToken),
          ("token_type", "bearer"),
        ]
        return ServerResponse(status: 303, headers: [("Location", flow.target + "#" + Self.goQueryEncode(fragment))])
      }
    } catch let error as GoTrueError {
      return ServerResponse(status: 303, headers: [("Location", flow.returning(error: error))])
    }
  }

  private enum OAuthEnding: Sendable {
    case code(String)
    case session(SBUser, SBSession, String)
  }
}

/// What `/authorize` was asked, carried through the provider's page.
private struct OAuthFlow {
  let provider: String
  let target: String
  let pkce: PKCEChallenge?

  init(values: (String) -> String?, api: SupabaseAPI) throws {
    provider = (values("provider") ?? "").lowercased()
    guard SupabaseAPI.oauthProviders.contains(provider) else {
      throw GoTrueError.validation("Unsupported provider: provider is not enabled")
    }
    let asked = values("redirect_to") ?? ""
    let config = api.config
    target =
      RedirectPolicy.isValid(asked, siteURL: config.siteURL, allowList: config.redirectAllowList)
      ? asked : config.siteURL
    pkce = try PKCEChallenge.parse(
      challenge: values("code_challenge") ?? "", method: values("code_challenge_method") ?? "")
  }

  var fields: [(String, String)] {
    var pairs = [("provider", provider), ("redirect_to", target)]
    if let pkce { pairs += [("code_challenge", pkce.challenge), ("code_challenge_method", pkce.method)] }
    return pairs
  }

  /// The app's callback with the error as GoTrue's callback sends it: in the query under PKCE,
  /// in the fragment otherwise.
  func returning(error: GoTrueError) -> String {
    let pairs = SupabaseAPI.redirectError(error)
    var base = target
    if let hash = base.firstIndex(of: "#") { base = String(base[..<hash]) }
    if pkce != nil { return SupabaseAPI.settingQuery(pairs, on: base) }
    return base + "#" + SupabaseAPI.goQueryEncode(pairs)
  }
}
