import HTTPServerKit

/// One route of the GoTrue side: the only place it is declared. Routing (404, 405, OPTIONS), the
/// checks before the handler (`Supabase+Protection.swift`) and the OpenAPI document all read it,
/// as GoTrue's `api.go` declares each route with its middleware.
struct SupabaseRoute: RouteDeclaration {
  /// Who may call it (`requireAuthentication`, `requireAdmin` in `api.go`): the handler checks it;
  /// a user route is authenticated before its rate limiter, as GoTrue's middleware order does.
  enum Access: String, Sendable { case anyone, user, admin }

  typealias Handler = @Sendable (SupabaseAPI, ServerRequest, [String: String]) throws -> ServerResponse

  let method: String
  let pattern: RoutePattern
  let access: Access
  /// What runs before the handler, in order.
  let guards: [SupabaseGuard]
  let summary: String
  let handler: Handler

  init(
    _ method: String, _ pattern: String, _ summary: String, access: Access = .anyone, guards: [SupabaseGuard] = [],
    handler: @escaping Handler
  ) {
    self.method = method
    self.pattern = RoutePattern(pattern)
    self.access = access
    self.guards = guards
    self.summary = summary
    self.handler = handler
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
    SupabaseRoute("GET", v1 + "/health", "GoTrue's version") { api, request, _ in try api.health(request) },
    SupabaseRoute("GET", v1 + "/settings", "Which providers are on") { api, request, _ in try api.settings(request) },
    SupabaseRoute("GET", v1 + "/.well-known/jwks.json", "Public signing keys (none for HS256)") { api, request, _ in
      try api.jwks(request)
    },
    SupabaseRoute(
      "POST", v1 + "/signup",
      "Sign up {email, password, data} (no e-mail and no phone: anonymous) → the user or a session",
      guards: [.captcha, .signupLimit]
    ) { api, request, _ in try api.signup(request) },
    SupabaseRoute(
      "POST", v1 + "/token",
      "?grant_type=password {email | phone, password}, refresh_token {refresh_token} or pkce {auth_code, code_verifier} → a session",
      guards: [.captchaExceptTokenRefresh, .limit(.token)]
    ) { api, request, _ in try api.token(request) },
    SupabaseRoute("POST", v1 + "/recover", "Mail a password reset {email}", guards: [.limit(.recover), .captcha]) {
      api, request, _ in try api.recover(request)
    },
    SupabaseRoute("POST", v1 + "/resend", "Mail again {type, email}", guards: [.limit(.resend), .captcha]) {
      api, request, _ in try api.resend(request)
    },
    SupabaseRoute(
      "POST", v1 + "/magiclink", "Mail a magic link {email, data} (a new address signs up first)",
      guards: [.limit(.magicLink), .captcha]
    ) { api, request, _ in try api.magicLink(request) },
    SupabaseRoute(
      "POST", v1 + "/otp",
      "Mail a magic link and a 6-digit code {email, create_user}, or text a code {phone, create_user, channel}",
      guards: [.limit(.otp), .captcha]
    ) { api, request, _ in try api.otp(request) },
    SupabaseRoute(
      "POST", v1 + "/verify", "Verify {type, token_hash | email+token | phone+token (type sms)}",
      guards: [.limit(.verify)]
    ) {
      api, request, _ in try api.verifyPost(request)
    },
    SupabaseRoute("GET", v1 + "/verify", "A mailed link: ?token&type&redirect_to", guards: [.limit(.verify)]) {
      api, request, _ in try api.verifyGet(request)
    },
    SupabaseRoute("GET", v1 + "/user", "The signed-in user", access: .user) { api, request, _ in
      try api.getUser(request)
    },
    SupabaseRoute("PUT", v1 + "/user", "Change {email, password, data}", access: .user, guards: [.limit(.user)]) {
      api, request, _ in try api.updateUser(request)
    },
    SupabaseRoute("POST", v1 + "/logout", "End the session (?scope=global|local|others)", access: .user) {
      api, request, _ in
      try api.logout(request)
    },
    SupabaseRoute("POST", v1 + "/invite", "Invite {email, data} → the user", access: .admin) { api, request, _ in
      try api.invite(request)
    },
    SupabaseRoute(
      "POST", v1 + "/factors",
      "Enrol a TOTP factor: {\"factor_type\":\"totp\",\"friendly_name\"} → {id, type, friendly_name, totp:{qr_code, secret, uri}}",
      access: .user
    ) { api, request, _ in try api.enrollFactor(request) },
    SupabaseRoute(
      "POST", v1 + "/factors/{factorId}/challenge", "Challenge a factor → {id, type, expires_at}", access: .user,
      guards: [.limit(.factorChallenge)]
    ) { api, request, path in try api.challengeFactor(request, factorID: path["factorId", default: ""]) },
    SupabaseRoute(
      "POST", v1 + "/factors/{factorId}/verify", "Verify {challenge_id, code} → an aal2 session", access: .user,
      guards: [.limit(.factorVerify)]
    ) { api, request, path in try api.verifyFactor(request, factorID: path["factorId", default: ""]) },
    SupabaseRoute("DELETE", v1 + "/factors/{factorId}", "Unenrol (a verified factor needs aal2) → {id}", access: .user)
    {
      api, request, path in try api.unenrollFactor(request, factorID: path["factorId", default: ""])
    },
    SupabaseRoute("GET", v1 + "/admin/users", "List users: page, per_page", access: .admin) { api, request, _ in
      try api.adminListUsers(request)
    },
    SupabaseRoute("POST", v1 + "/admin/users", "Create a user", access: .admin) { api, request, _ in
      try api.adminCreateUser(request)
    },
    SupabaseRoute("GET", v1 + "/admin/users/{userId}", "One user", access: .admin) { api, request, _ in
      try api.adminGetUser(request)
    },
    SupabaseRoute("PUT", v1 + "/admin/users/{userId}", "Change a user", access: .admin) { api, request, _ in
      try api.adminUpdateUser(request)
    },
    SupabaseRoute("DELETE", v1 + "/admin/users/{userId}", "Delete a user {should_soft_delete}", access: .admin) {
      api, request, _ in try api.adminDeleteUser(request)
    },
    SupabaseRoute("GET", v1 + "/admin/users/{userId}/factors", "A user's factors", access: .admin) {
      api, request, path in
      try api.adminListFactors(request, userID: path["userId", default: ""])
    },
    SupabaseRoute(
      "DELETE", v1 + "/admin/users/{userId}/factors/{factorId}", "Remove a user's factor → the factor", access: .admin
    ) { api, request, path in
      try api.adminDeleteFactor(
        request, userID: path["userId", default: ""], factorID: path["factorId", default: ""])
    },
    SupabaseRoute(
      "PUT", v1 + "/admin/users/{userId}/factors/{factorId}", "Rename a factor {friendly_name} → the factor",
      access: .admin
    ) { api, request, path in
      try api.adminUpdateFactor(
        request, userID: path["userId", default: ""], factorID: path["factorId", default: ""])
    },
    SupabaseRoute("POST", v1 + "/admin/generate_link", "A link without mail {type, email, …}", access: .admin) {
      api, request, _ in try api.adminGenerateLink(request)
    },
    SupabaseRoute(
      "GET", v1 + "/admin/audit", "The audit trail, newest first: page, per_page, query=author:|action:|type:",
      access: .admin
    ) { api, request, _ in try api.adminAuditLog(request) },
    SupabaseRoute(
      "GET", v1 + "/authorize",
      "A browser sign-in: ?provider=google&redirect_to=…[&code_challenge=…&code_challenge_method=s256] → the provider's page"
    ) { api, request, _ in try api.authorize(request) },
    SupabaseRoute("GET", oauthPagePath, "The provider's page (emulator only): pick an account or add one") {
      api, request, _ in try api.oauthPage(request)
    },
    SupabaseRoute("POST", oauthPagePath, "The provider's answer (emulator only) → the app's redirect_to") {
      api, request, _ in try api.oauthChoose(request)
    },
    SupabaseRoute(
      "POST", fakeIdPPath,
      "Sign in as a Supabase user of a social provider (emulator only): {\"provider\":\"google\",\"email\",\"sub\"?,\"name\"?,\"email_verified\"?} → the session"
    ) { api, request, _ in try api.fakeIdPSignIn(request) },
  ]
}
