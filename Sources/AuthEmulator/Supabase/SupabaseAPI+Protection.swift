import Essentials
import HTTPServerKit
import JSONKit

/// What GoTrue checks before a handler runs (`api.go` routes, `middleware.go`), as the route table
/// declares it: the CAPTCHA token (`verifyCaptcha`, with `--captcha`) and the per-address token
/// buckets (`limitHandler`), in the order each route applies them. A user route is authenticated
/// first (`requireAuthentication` runs before its limiter).
extension SupabaseAPI {
  /// Throws the refusal; returns to go on to the handler.
  func protect(_ request: ServerRequest, _ route: SupabaseRoute) throws {
    guard !route.guards.isEmpty else { return }
    if route.access == .user { _ = try context.authenticate(request) }
    for check in route.guards {
      switch check {
      case .captcha:
        try verifyCaptcha(request)
      case .captchaExceptTokenRefresh:
        if !["refresh_token", "pkce", "id_token"].contains(request.query("grant_type") ?? "") {
          try verifyCaptcha(request)
        }
      case .limit(let limit):
        try self.limit(request, limit)
      case .signupLimit:
        let params = try RequestParams(request)
        let anonymous = try params.string("email").isEmpty && params.string("phone").isEmpty
        if anonymous {
          if config.anonymousSignIns { try self.limit(request, .anonymous) }
        } else {
          try self.limit(request, .signup)
        }
      }
    }
  }

  /// When the limit applies (like production, or set for the default mode): one request from
  /// this address's bucket, or 429 `over_request_rate_limit`. The address is the first `X-Forwarded-For` value, as behind
  /// Supabase's proxy (GoTrue's `RATE_LIMIT_HEADER`); else this machine.
  func limit(_ request: ServerRequest, _ limit: SupabaseLimit) throws {
    guard let limiter = context.mode.limiter(limit) else { return }
    let forwarded =
      request.header("X-Forwarded-For")?.split(separator: ",").first
      .map { $0.trimmingSpaces } ?? ""
    guard !limiter.allow(key: forwarded.isEmpty ? "local" : forwarded, at: context.clock.now()) else { return }
    throw GoTrueError(status: 429, code: "over_request_rate_limit", message: "Request rate limit reached")
  }

  /// GoTrue's `verifyCaptcha` with CAPTCHA protection on: a request with admin credentials (a
  /// service_role JWT, a secret key) skips it; any other needs a non-empty
  /// `gotrue_meta_security.captcha_token` (the emulator has no CAPTCHA service to ask, so any
  /// token passes).
  func verifyCaptcha(_ request: ServerRequest) throws {
    guard context.mode.captcha else { return }
    if (try? context.requireAdmin(request)) != nil { return }
    let params = try RequestParams(request)
    let token = (try? params.object("gotrue_meta_security"))?["captcha_token"]?.string ?? ""
    guard token.trimmingSpacesAndNewlines.isEmpty else { return }
    throw GoTrueError.badRequest("captcha_failed", "captcha protection: request disallowed (no captcha_token found)")
  }
}
