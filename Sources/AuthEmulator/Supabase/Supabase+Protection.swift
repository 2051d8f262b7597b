import Essentials
import HTTPServerKit
import JSONKit

/// What GoTrue checks before a handler runs (`api.go` routes, `middleware.go`): the CAPTCHA token
/// (`verifyCaptcha`, with `--captcha`) and, like production, the per-address token buckets
/// (`limitHandler`), in the order each route applies them.
extension SupabaseAPI {
  /// A refusal, or nil to go on to the handler.
  func protect(_ request: ServerRequest, method: String, path: String) -> ServerResponse? {
    // An oversized body is answered 413 first (`limitRequestBody` runs before everything).
    if request.bodyTooLarge { return nil }
    do {
      switch (method, path) {
      case ("POST", "/signup"):
        // Captcha first, then the sign-up or the anonymous bucket (the handler's own order).
        try verifyCaptcha(request)
        let params = try RequestParams(request)
        let anonymous = try params.string("email").isEmpty && params.string("phone").isEmpty
        if anonymous {
          if config.anonymousSignIns { try limit(request, mode.anonymousLimiter) }
        } else {
          try limit(request, mode.signupLimiter)
        }
      case ("POST", "/recover"):
        try limit(request, mode.recoverLimiter)
        try verifyCaptcha(request)
      case ("POST", "/resend"):
        try limit(request, mode.resendLimiter)
        try verifyCaptcha(request)
      case ("POST", "/otp"):
        try limit(request, mode.otpLimiter)
        try verifyCaptcha(request)
      case ("POST", "/magiclink"):
        try limit(request, mode.magicLinkLimiter)
        try verifyCaptcha(request)
      case ("POST", "/token"):
        // `isIgnoreCaptchaRoute`: refresh, PKCE and ID-token grants carry no CAPTCHA.
        if !["refresh_token", "pkce", "id_token"].contains(request.query("grant_type") ?? "") {
          try verifyCaptcha(request)
        }
        try limit(request, mode.tokenLimiter)
      case (_, "/verify"):
        try limit(request, mode.verifyLimiter)
      case ("PUT", "/user"):
        try limit(request, mode.userLimiter)
      default:
        break
      }
      return nil
    } catch let error as GoTrueError {
      return error.response(for: request)
    } catch {
      return GoTrueError.internal("Unexpected error: \(error)").response(for: request)
    }
  }

  /// Like production only: one request from this address's bucket, or 429
  /// `over_request_rate_limit`. The address is the first `X-Forwarded-For` value, as behind
  /// Supabase's proxy (GoTrue's `RATE_LIMIT_HEADER`); else this machine.
  func limit(_ request: ServerRequest, _ limiter: TokenBucketLimiter) throws {
    guard mode.likeProduction else { return }
    let forwarded =
      request.header("X-Forwarded-For")?.split(separator: ",").first
      .map { $0.trimmingSpaces } ?? ""
    guard !limiter.allow(key: forwarded.isEmpty ? "local" : forwarded, at: clock.now()) else { return }
    throw GoTrueError(status: 429, code: "over_request_rate_limit", message: "Request rate limit reached")
  }

  /// GoTrue's `verifyCaptcha` with CAPTCHA protection on: a request with admin credentials (a
  /// service_role JWT, a secret key) skips it; any other needs a non-empty
  /// `gotrue_meta_security.captcha_token` (the emulator has no CAPTCHA service to ask, so any
  /// token passes).
  func verifyCaptcha(_ request: ServerRequest) throws {
    guard mode.captcha else { return }
    if (try? requireAdmin(request)) != nil { return }
    let params = try RequestParams(request)
    let token = (try? params.object("gotrue_meta_security"))?["captcha_token"]?.string ?? ""
    guard token.trimmingSpacesAndNewlines.isEmpty else { return }
    throw GoTrueError.badRequest("captcha_failed", "captcha protection: request disallowed (no captcha_token found)")
  }
}
