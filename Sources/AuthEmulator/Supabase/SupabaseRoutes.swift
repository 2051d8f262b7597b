import HTTPServerKit

/// One route of the GoTrue side: the only place it is declared. Routing (404, 405, OPTIONS), the
/// checks before the handler (`SupabaseAPI+Protection.swift`) and the OpenAPI document all read it,
/// as GoTrue's `api.go` declares each route with its middleware.
struct SupabaseRoute: RouteDeclaration {
  /// Who may call it (`requireAuthentication`, `requireAdmin` in `api.go`): the handler checks it;
  /// a user route is authenticated before its rate limiter, as GoTrue's middleware order does.
  enum Access: String, Sendable { case anyone, user, admin }

  /// The route's handler behind its path decoding: the path parameters as the pattern matched them.
  typealias Handler = @Sendable (SupabaseAPI, ServerRequest, [String: String]) throws -> ServerResponse

  let method: String
  let pattern: RoutePattern
  let access: Access
  /// What runs before the handler, in order.
  let guards: [SupabaseGuard]
  let summary: String
  /// The names the route's path type reads (`SupabasePath.parameterNames`): the pattern's.
  let pathParameterNames: [String]
  let handler: Handler

  /// A route whose handler takes its path parameters as `Path`, decoded before it runs.
  init<Path: SupabasePath>(
    _ method: String, _ pattern: String, _ summary: String, access: Access = .anyone, guards: [SupabaseGuard] = [],
    path: Path.Type, handler: @escaping @Sendable (SupabaseAPI, ServerRequest, Path) throws -> ServerResponse
  ) {
    self.method = method
    self.pattern = RoutePattern(pattern)
    self.access = access
    self.guards = guards
    self.summary = summary
    self.pathParameterNames = Path.parameterNames
    self.handler = { api, request, parameters in try handler(api, request, Path(parameters)) }
  }

  /// A route without path parameters.
  init(
    _ method: String, _ pattern: String, _ summary: String, access: Access = .anyone, guards: [SupabaseGuard] = [],
    handler: @escaping @Sendable (SupabaseAPI, ServerRequest) throws -> ServerResponse
  ) {
    self.init(method, pattern, summary, access: access, guards: guards, path: NoPath.self) { api, request, _ in
      try handler(api, request)
    }
  }

  /// Served under `/auth/v1` (CORS, preflight, the GoTrue 404); the others are the emulator's own.
  var isGoTrue: Bool { pattern.description.hasPrefix(SupabaseAPI.prefix + "/") }
}

/// A check of `api.go`'s middleware chain.
enum SupabaseGuard: Sendable, Equatable {
  /// `verifyCaptcha`.
  case captcha
  /// `verifyCaptcha` on `/token`: refresh, PKCE and ID-token grants carry none (`isIgnoreCaptchaRoute`).
  case captchaExceptTokenRefresh
  /// `limitHandler(…)`: one request from the caller's bucket.
  case limit(SupabaseLimit)
  /// `/signup`: the anonymous bucket without e-mail and phone, else the sign-up bucket.
  case signupLimit
}

extension SupabaseAPI {
  private static let v1 = prefix

  /// Every route of the Supabase side, each once.
  static let routes: [SupabaseRoute] = [
    SupabaseRoute("GET", v1 + "/health", "GoTrue's version") { api, request in try api.info.health(request) },
    SupabaseRoute("GET", v1 + "/settings", "Which providers are on") { api, request in try api.info.settings(request) },
    SupabaseRoute("GET", v1 + "/.well-known/jwks.json", "Public signing keys (none for HS256)") { api, request in
      try api.info.jwks(request)
    },
    SupabaseRoute(
      "POST", v1 + "/signup",
      "Sign up {email, password, data} (no e-mail and no phone: anonymous) → the user or a session",
      guards: [.captcha, .signupLimit]
    ) { api, request in try api.signup.signup(request) },
    SupabaseRoute(
      "POST", v1 + "/token",
      "?grant_type=password {email | phone, password}, refresh_token {refresh_token} or pkce {auth_code, code_verifier} → a session",
      guards: [.captchaExceptTokenRefresh, .limit(.token)]
    ) { api, request in try api.token.token(request) },
    SupabaseRoute("POST", v1 + "/recover", "Mail a password reset {email}", guards: [.limit(.recover), .captcha]) {
      api, request in try api.mail.recover(request)
    },
    SupabaseRoute("POST", v1 + "/resend", "Mail again {type, email}", guards: [.limit(.resend), .captcha]) {
      api, request in try api.mail.resend(request)
    },
    SupabaseRoute(
      "POST", v1 + "/magiclink", "Mail a magic link {email, data} (a new address signs up first)",
      guards: [.limit(.magicLink), .captcha]
    ) { api, request in try api.otp.magicLink(request) },
    SupabaseRoute(
      "POST", v1 + "/otp",
      "Mail a magic link and a 6-digit code {email, create_user}, or text a code {phone, create_user, channel}",
      guards: [.limit(.otp), .captcha]
    ) { api, request in try api.otp.otp(request) },
    SupabaseRoute(
      "POST", v1 + "/verify", "Verify {type, token_hash | email+token | phone+token (type sms)}",
      guards: [.limit(.verify)]
    ) {
      api, request in try api.verify.verifyPost(request)
    },
    SupabaseRoute("GET", v1 + "/verify", "A mailed link: ?token&type&redirect_to", guards: [.limit(.verify)]) {
      api, request in try api.verify.verifyGet(request)
    },
    SupabaseRoute("GET", v1 + "/user", "The signed-in user", access: .user) { api, request in
      try api.user.getUser(request)
    },
    SupabaseRoute("PUT", v1 + "/user", "Change {email, password, data}", access: .user, guards: [.limit(.user)]) {
      api, request in try api.user.updateUser(request)
    },
    SupabaseRoute("POST", v1 + "/logout", "End the session (?scope=global|local|others)", access: .user) {
      api, request in
      try api.token.logout(request)
    },
    SupabaseRoute("POST", v1 + "/invite", "Invite {email, data} → the user", access: .admin) { api, request in
      try api.adminLinks.invite(request)
    },
    SupabaseRoute(
      "POST", v1 + "/factors",
      "Enrol a TOTP factor: {\"factor_type\":\"totp\",\"friendly_name\"} → {id, type, friendly_name, totp:{qr_code, secret, uri}}",
      access: .user
    ) { api, request in try api.factors.enrollFactor(request) },
    SupabaseRoute(
      "POST", v1 + "/factors/{factorId}/challenge", "Challenge a factor → {id, type, expires_at}", access: .user,
      guards: [.limit(.factorChallenge)], path: FactorIDPath.self
    ) { api, request, path in try api.factors.challengeFactor(request, path) },
    SupabaseRoute(
      "POST", v1 + "/factors/{factorId}/verify", "Verify {challenge_id, code} → an aal2 session", access: .user,
      guards: [.limit(.factorVerify)], path: FactorIDPath.self
    ) { api, request, path in try api.factors.verifyFactor(request, path) },
    SupabaseRoute(
      "DELETE", v1 + "/factors/{factorId}", "Unenrol (a verified factor needs aal2) → {id}", access: .user,
      path: FactorIDPath.self
    ) { api, request, path in try api.factors.unenrollFactor(request, path) },
    SupabaseRoute("GET", v1 + "/admin/users", "List users: page, per_page", access: .admin) { api, request in
      try api.admin.adminListUsers(request)
    },
    SupabaseRoute("POST", v1 + "/admin/users", "Create a user", access: .admin) { api, request in
      try api.admin.adminCreateUser(request)
    },
    SupabaseRoute("GET", v1 + "/admin/users/{userId}", "One user", access: .admin, path: UserIDPath.self) {
      api, request, path in try api.admin.adminGetUser(request, path)
    },
    SupabaseRoute("PUT", v1 + "/admin/users/{userId}", "Change a user", access: .admin, path: UserIDPath.self) {
      api, request, path in try api.admin.adminUpdateUser(request, path)
    },
    SupabaseRoute(
      "DELETE", v1 + "/admin/users/{userId}", "Delete a user {should_soft_delete}", access: .admin,
      path: UserIDPath.self
    ) { api, request, path in try api.admin.adminDeleteUser(request, path) },
    SupabaseRoute(
      "GET", v1 + "/admin/users/{userId}/factors", "A user's factors", access: .admin, path: UserIDPath.self
    ) { api, request, path in try api.adminFactors.adminListFactors(request, path) },
    SupabaseRoute(
      "DELETE", v1 + "/admin/users/{userId}/factors/{factorId}", "Remove a user's factor → the factor", access: .admin,
      path: UserFactorPath.self
    ) { api, request, path in try api.adminFactors.adminDeleteFactor(request, path) },
    SupabaseRoute(
      "PUT", v1 + "/admin/users/{userId}/factors/{factorId}", "Rename a factor {friendly_name} → the factor",
      access: .admin, path: UserFactorPath.self
    ) { api, request, path in try api.adminFactors.adminUpdateFactor(request, path) },
    SupabaseRoute("POST", v1 + "/admin/generate_link", "A link without mail {type, email, …}", access: .admin) {
      api, request in try api.adminLinks.adminGenerateLink(request)
    },
    SupabaseRoute(
      "GET", v1 + "/admin/audit", "The audit trail, newest first: page, per_page, query=author:|action:|type:",
      access: .admin
    ) { api, request in try api.admin.adminAuditLog(request) },
    SupabaseRoute(
      "GET", v1 + "/authorize",
      "A browser sign-in: ?provider=google&redirect_to=…[&code_challenge=…&code_challenge_method=s256] → the provider's page"
    ) { api, request in try api.oauth.authorize(request) },
    SupabaseRoute(
      "GET", SupabaseOAuthRoutes.oauthPagePath, "The provider's page (emulator only): pick an account or add one"
    ) {
      api, request in try api.oauth.oauthPage(request)
    },
    SupabaseRoute(
      "POST", SupabaseOAuthRoutes.oauthPagePath, "The provider's answer (emulator only) → the app's redirect_to"
    ) {
      api, request in try api.oauth.oauthChoose(request)
    },
    SupabaseRoute(
      "POST", SupabaseOAuthRoutes.fakeIdPPath,
      "Sign in as a Supabase user of a social provider (emulator only): {\"provider\":\"google\",\"email\",\"sub\"?,\"name\"?,\"email_verified\"?} → the session"
    ) { api, request in try api.oauth.fakeIdPSignIn(request) },
  ]
}
