import Essentials
import HTTPServerKit
import JSONKit

/// A browser sign-in with a social provider, as GoTrue runs it (`external.go`): `GET
/// /auth/v1/authorize?provider=…&redirect_to=…` (with `code_challenge` under PKCE) sends the
/// browser to the provider, here a page of the emulator (`OAuthProviderPage`). The account chosen
/// there comes back as GoTrue's callback does: a new account, or the identity linked to the
/// account of that verified address; then the app's `redirect_to` with `?code=` (PKCE, for `POST
/// /token?grant_type=pkce`) or the session in the fragment (implicit flow). And the emulator's
/// shortcut past the page, `POST /emulator/v1/supabase/idp`.
struct SupabaseOAuthRoutes: Sendable {
  static let oauthPagePath = "/emulator/v1/supabase/oauth"
  static let fakeIdPPath = "/emulator/v1/supabase/idp"

  /// The providers `/authorize` takes: every social one GoTrue names.
  static var oauthProviders: Set<String> { EmulatorSeed.supabaseProviders.subtracting(["email", "phone"]) }

  let context: GoTrueContext

  // MARK: - GET /authorize, the provider's page

  func authorize(_ request: ServerRequest) throws -> ServerResponse {
    let provider = (request.query("provider") ?? "").lowercased()
    guard Self.oauthProviders.contains(provider) else {
      throw GoTrueError.validation("Unsupported provider: provider is not enabled")
    }
    let pkce = try PKCEChallenge.parse(
      challenge: request.query("code_challenge") ?? "", method: request.query("code_challenge_method") ?? "")
    let target = context.redirectTarget(request)
    var pairs = [("provider", provider), ("redirect_to", target)]
    if let pkce { pairs += [("code_challenge", pkce.challenge), ("code_challenge_method", pkce.method)] }
    return ServerResponse(
      status: 302, headers: [("Location", Self.oauthPagePath + "?" + GoTrueRedirects.goQueryEncode(pairs))])
  }

  /// The provider's page: this side's accounts with an identity of the provider, and a form.
  func oauthPage(_ request: ServerRequest) throws -> ServerResponse {
    let flow = try OAuthFlow(values: { request.query($0) }, context: context)
    let accounts = context.state.read { data in
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
    let flow = try OAuthFlow(values: { form[$0] }, context: context)
    let now = context.now
    do {
      let email = try GoTrueRules.validateEmail(form["email"] ?? "")
      let name = (form["name"] ?? "").trimming { $0.properties.isWhitespace }
      let given = form["sub"] ?? ""
      let subject = given.isEmpty ? SupabaseAPI.fakeSubject(provider: flow.provider, email: email) : given
      let ip = context.clientIP(request)
      let traits: JSON = ["provider": .string(flow.provider)]
      let ending = try context.state.transaction { data -> OAuthEnding in
        let user = try externalUser(
          in: &data, provider: flow.provider, email: email, emailVerified: true, name: name.isEmpty ? nil : name,
          subject: subject, ip: ip, now: now)
        if let pkce = flow.pkce {
          try context.startFlow(pkce, userID: user.id, method: "oauth", provider: flow.provider, in: &data, now: now)
          return .code(try context.issueAuthCode(userID: user.id, method: "oauth", in: &data, now: now))
        }
        data.recordAudit("login", user: user, traits: traits, at: now)
        guard let started = context.startSession(userID: user.id, method: "oauth", in: &data, now: now) else {
          throw GoTrueError.internal("Database error creating session")
        }
        return .session(started.user, started.session, started.refreshToken)
      }
      switch ending {
      case .code(let code):
        return ServerResponse(
          status: 303, headers: [("Location", GoTrueRedirects.settingQuery([("code", code)], on: flow.target))])
      case .session(let user, let session, let refreshToken):
        let (accessToken, expiresAt) = context.accessToken(
          user: user, session: session, issuer: context.issuer(for: request), now: now)
        let fragment = [
          ("access_token", accessToken), ("expires_at", String(expiresAt)),
          ("expires_in", String(expiresAt - Int(now / 1_000_000))),
          ("provider_token", "emulator-\(flow.provider)-access-token"), ("refresh_token", refreshToken),
          ("token_type", "bearer"),
        ]
        return ServerResponse(
          status: 303, headers: [("Location", flow.target + "#" + GoTrueRedirects.goQueryEncode(fragment))])
      }
    } catch let error as GoTrueError {
      return ServerResponse(status: 303, headers: [("Location", flow.returning(error: error))])
    }
  }

  // MARK: - POST /emulator/v1/supabase/idp

  /// `POST /emulator/v1/supabase/idp` (emulator only): what a browser would bring back from Google,
  /// GitHub, … after `GET /auth/v1/authorize?provider=…`, as one call. GoTrue's
  /// `createAccountFromExternalIdentity`: the identity's account signs in; else an account with the
  /// same verified e-mail gets the identity linked; else a new account is made with only that
  /// identity. Answers the session, as the token endpoint does.
  func fakeIdPSignIn(_ request: ServerRequest) throws -> ServerResponse {
    let params = try RequestParams(request)
    let provider = try params.string("provider").lowercased()
    guard EmulatorSeed.supabaseProviders.contains(provider), provider != "email" else {
      throw GoTrueError.validation(
        "Unsupported provider: \(JSON.string(provider).compactText) (one of "
          + EmulatorSeed.supabaseProviders.subtracting(["email"]).sorted().joined(separator: ", ") + ")")
    }
    let rawEmail = try params.string("email")
    let email = rawEmail.isEmpty ? "" : try GoTrueRules.validateEmail(rawEmail)
    let emailVerified = (params.object as JSONObject)["email_verified"]?.bool ?? true
    let name = try params.optionalString("name")
    let givenSubject = try params.string("sub")
    let subject = givenSubject.isEmpty ? SupabaseAPI.fakeSubject(provider: provider, email: email) : givenSubject
    let now = context.now
    let traits: JSON = ["provider": .string(provider)]
    let started = try context.state.transaction { data -> (user: SBUser, session: SBSession, refreshToken: String) in
      let user = try externalUser(
        in: &data, provider: provider, email: email, emailVerified: emailVerified, name: name, subject: subject,
        ip: context.clientIP(request), now: now)
      data.recordAudit("login", user: user, traits: traits, at: now)
      guard let started = context.startSession(userID: user.id, method: "oauth", in: &data, now: now) else {
        throw GoTrueError.internal("Database error creating session")
      }
      return started
    }
    return context.json(
      bytes: context.sessionBody(
        user: started.user, session: started.session, refreshToken: started.refreshToken,
        request: request, now: now))
  }

  /// GoTrue's `createAccountFromExternalIdentity`, for an identity a provider vouched for: its
  /// account; else the account of the same verified address, the identity linked; else a new one.
  /// Saved, with the identity's last sign-in now.
  func externalUser(
    in data: inout SupabaseData, provider: String, email: String, emailVerified: Bool, name: String?,
    subject: String, ip: String, now: Micros
  ) throws -> SBUser {
    let traits: JSON = ["provider": .string(provider)]
    var user: SBUser
    if let owner = data.users.values.first(where: { candidate in
      candidate.otherIdentities.contains { $0.provider == provider && $0.providerID == subject }
    }) {
      user = owner
      if user.isBanned(at: now) { throw GoTrueError.badRequest("user_banned", "User is banned") }
    } else if !email.isEmpty, emailVerified, var existing = data.user(email: email), !existing.isSSOUser {
      if existing.isBanned(at: now) { throw GoTrueError.badRequest("user_banned", "User is banned") }
      let identity = SupabaseAPI.externalIdentity(
        provider: provider, subject: subject, user: existing, now: now, name: name)
      existing.otherIdentities.append(identity)
      existing.appMetadata["providers"] = .array(existing.identityProviders.map(JSON.string))
      existing.appMetadata = existing.appMetadata.sortedByKey
      data.recordAudit(
        "identity_linked", user: existing, ip: ip,
        traits: [
          "identity_id": .string(identity.identityID), "provider": .string(provider), "provider_id": .string(subject),
        ], at: now)
      if !existing.isConfirmed {
        if existing.invitedAt != nil { data.recordAudit("invite_accepted", user: existing, traits: traits, at: now) }
        existing.confirm(at: now)
      }
      user = existing
    } else {
      if !email.isEmpty, data.user(email: email) != nil {
        throw GoTrueError.unprocessable("email_exists", "A user with this email address has already been registered")
      }
      user = SBUser(
        id: EmulatorRandom.uuid(), email: email, appMetadata: JSONObject(), userMetadata: JSONObject(),
        createdAt: now, updatedAt: now)
      let identity = SupabaseAPI.externalIdentity(
        provider: provider, subject: subject, user: user, now: now, name: name)
      user.otherIdentities = [identity]
      user.appMetadata = JSONObject([("provider", .string(provider)), ("providers", [.string(provider)])])
      user.userMetadata = identity.data
      if emailVerified || !context.confirmEmail {
        user.emailConfirmedAt = now
      } else {
        data.saveUser(user)
        throw GoTrueError.badRequest(
          "provider_email_needs_verification",
          "Unverified email with \(provider). A confirmation email has been sent to your \(provider) email")
      }
      data.recordAudit("user_signedup", user: user, traits: traits, at: now)
    }
    if let index = user.otherIdentities.firstIndex(where: { $0.provider == provider && $0.providerID == subject }) {
      user.otherIdentities[index].lastSignInAt = now
    }
    data.saveUser(user)
    return user
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

  init(values: (String) -> String?, context: GoTrueContext) throws {
    provider = (values("provider") ?? "").lowercased()
    guard SupabaseOAuthRoutes.oauthProviders.contains(provider) else {
      throw GoTrueError.validation("Unsupported provider: provider is not enabled")
    }
    let asked = values("redirect_to") ?? ""
    target =
      RedirectPolicy.isValid(asked, siteURL: context.config.siteURL, allowList: context.config.redirectAllowList)
      ? asked : context.config.siteURL
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
    let pairs = GoTrueRedirects.redirectError(error)
    var base = target
    if let hash = base.firstIndex(of: "#") { base = String(base[..<hash]) }
    if pkce != nil { return GoTrueRedirects.settingQuery(pairs, on: base) }
    return base + "#" + GoTrueRedirects.goQueryEncode(pairs)
  }
}
