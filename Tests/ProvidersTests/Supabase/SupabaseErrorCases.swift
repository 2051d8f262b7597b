import AuthCore

/// Catalogue rows as GoTrue answers them: current and legacy bodies, OAuth-style,
/// 429s, HTML, truncated and mistyped JSON.
enum SupabaseErrorCases {
  static let login = "login ada@example.com --password correct-horse-battery"
  static let signup = "signup ada@example.com --name Ada --password correct-horse-battery"
  static let token = "/auth/v1/token"
  static let api = [("X-Supabase-Api-Version", "2024-01-01")]

  static func row(
    _ name: String, _ line: String, _ method: String, _ path: String, _ status: Int, _ fixture: String?,
    _ code: ErrorCode, _ message: String, exit: Int32 = 1, headers: [(String, String)] = api,
    providerCode: String? = nil,
    retryAfter: Int? = nil, signedIn: Bool = false, contentType: String = "application/json"
  ) -> ErrorCase {
    ErrorCase(
      name: name, provider: .supabase, line: line, method: method, path: path, status: status,
      fixture: fixture.map { "supabase/" + $0 }, headers: headers, contentType: contentType, signedIn: signedIn,
      code: code, message: message, exit: exit, providerCode: providerCode, retryAfter: retryAfter)
  }

  static let all: [ErrorCase] =
    [
      row(
        "invalid_credentials (2024-01-01 body)", login, "POST", token, 400, "error_invalid_credentials_2024.json",
        .invalidCredentials, "Invalid email or password", providerCode: "invalid_credentials"),
      row(
        "invalid_credentials (legacy body)", login, "POST", token, 400, "error_invalid_credentials_legacy.json",
        .invalidCredentials, "Invalid email or password", headers: [], providerCode: "invalid_credentials"),
      row(
        "invalid_grant (older servers)", login, "POST", token, 400, "error_invalid_grant_oauth.json",
        .invalidCredentials, "Invalid email or password", headers: [], providerCode: "invalid_grant"),
      row(
        "email_not_confirmed", login, "POST", token, 400, "error_email_not_confirmed.json", .emailNotConfirmed,
        "Please verify your email. Check your inbox for a verification link."),
      row(
        "user_already_exists", signup, "POST", "/auth/v1/signup", 422, "error_user_already_exists.json",
        .userAlreadyExists, "An account with this email already exists. Try signing in instead."),
      row(
        "email_exists (legacy)", signup, "POST", "/auth/v1/signup", 422, "error_email_exists_legacy.json",
        .userAlreadyExists, "An account with this email already exists. Try signing in instead.", headers: []),
      row(
        "weak_password", signup, "POST", "/auth/v1/signup", 422, "error_weak_password.json", .weakPassword,
        "Password should be at least 6 characters."),
      row(
        "weak_password (legacy)", signup, "POST", "/auth/v1/signup", 422, "error_weak_password_legacy.json",
        .weakPassword, "Password should be at least 6 characters.", headers: []),
      row(
        "user_banned", login, "POST", token, 400, "error_user_banned.json", .userDisabled,
        "This account has been disabled.", providerCode: "user_banned"),
      row(
        "over_email_send_rate_limit on reset", "reset ada@example.com", "POST", "/auth/v1/recover", 429,
        "error_over_email_send_rate_limit.json", .rateLimited, "Too many reset requests. Try again in 1 minute.",
        retryAfter: 37),
      row(
        "over_request_rate_limit with Retry-After", login, "POST", token, 429, "error_over_request_rate_limit.json",
        .rateLimited, "Too many attempts. Please try again in 2 minutes.", headers: api + [("Retry-After", "120")],
        retryAfter: 120),
      row(
        "otp_expired", "reset confirm 123456 --email ada@example.com --password new-password-1", "POST",
        "/auth/v1/verify", 403, "error_otp_expired.json", .invalidCode, "This reset link is invalid or has expired."),
      row(
        "refresh_token_not_found", "refresh", "POST", token, 400, "error_refresh_token_not_found.json", .sessionExpired,
        "You were logged out due to inactivity. Please log in again.", exit: 4, signedIn: true),
      row(
        "refresh_token_already_used", "refresh", "POST", token, 400, "error_refresh_token_already_used.json",
        .sessionExpired, "You were logged out due to inactivity. Please log in again.", exit: 4, signedIn: true),
      row(
        "refresh_token_already_used (legacy)", "refresh", "POST", token, 400,
        "error_refresh_token_already_used_legacy.json", .sessionExpired,
        "You were logged out due to inactivity. Please log in again.", exit: 4, headers: [], signedIn: true),
      row(
        "invalid_grant refresh (older servers)", "refresh", "POST", token, 400,
        "error_invalid_grant_refresh_oauth.json", .sessionExpired,
        "You were logged out due to inactivity. Please log in again.", exit: 4, headers: [], signedIn: true),
      row(
        "session_expired on refresh", "refresh", "POST", token, 400, "error_session_expired.json", .sessionExpired,
        "You were logged out due to inactivity. Please log in again.", exit: 4, signedIn: true),
      row(
        "session_not_found on /user", "whoami", "GET", "/auth/v1/user", 403, "error_session_not_found.json",
        .sessionExpired, SessionEnd.revokedMessage, exit: 4, signedIn: true),
      row(
        "bad_jwt on /user", "whoami", "GET", "/auth/v1/user", 403, "error_bad_jwt.json", .sessionExpired,
        "You were logged out due to inactivity. Please log in again.", exit: 4, signedIn: true),
      row(
        "validation_failed keeps the server's sentence", login, "POST", token, 400, "error_validation_failed.json",
        .invalidRequest, "Unable to validate email address: invalid format", providerCode: "validation_failed"),
      row(
        "validation_failed: 72-character limit", signup, "POST", "/auth/v1/signup", 400, "error_password_too_long.json",
        .invalidRequest, "Password cannot be longer than 72 characters", providerCode: "validation_failed"),
      row(
        "bad_json", login, "POST", token, 400, "error_bad_json.json", .invalidRequest,
        "Could not parse request body as JSON: unexpected end of JSON input", providerCode: "bad_json"),
      row(
        "gateway 401 Invalid API key", login, "POST", token, 401, "error_invalid_api_key.json", .configError,
        "The Supabase API key was rejected (Invalid API key).", headers: []),
      row(
        "500 unexpected_failure", login, "POST", token, 500, "error_unexpected_failure_legacy.json", .serverError,
        "Server error. Please try again later.", exit: 3, headers: []),
      row(
        "HTML 502 page", login, "POST", token, 502, "html_502.html", .serverError,
        "Server error. Please try again later.", exit: 3, headers: [], contentType: "text/html"),
      row(
        "truncated JSON", login, "POST", token, 200, "truncated_session.json", .malformedResponse,
        "Server error. Please try again later.", exit: 3, headers: []),
      row(
        "JSON with wrong types (session)", login, "POST", token, 200, "wrong_types_session.json", .malformedResponse,
        "Server error. Please try again later.", exit: 3, headers: []),
      row(
        "JSON with wrong types (user)", "whoami", "GET", "/auth/v1/user", 200, "wrong_types_user.json",
        .malformedResponse, "Server error. Please try again later.", exit: 3, headers: [], signedIn: true),
      row(
        "unknown code passes through", login, "POST", token, 422, "error_unknown_code.json", .providerError,
        "Failed to reach hook within maximum time of 2.000000 seconds", providerCode: "hook_timeout"),
      row(
        "404 text: wrong URL", login, "POST", token, 404, nil, .configError,
        "The URL does not look like a Supabase Auth API (HTTP 404).", headers: [], contentType: "text/plain"),
    ] + projectSetup + olderServers

  static let reset = "reset ada@example.com"
  static let noSignup = "Sign-ups are disabled for this project."
  static let noPassword = "E-mail and password sign-in is disabled for this project."

  /// Answers that depend on the project's settings (production bodies, 2024-01-01 format).
  static let projectSetup: [ErrorCase] = [
    row(
      "signup_disabled", signup, "POST", "/auth/v1/signup", 422, "error_signup_disabled.json", .signupDisabled,
      noSignup, providerCode: "signup_disabled"
    ).hinting("enable_signup = true"),
    row(
      "email_provider_disabled on login", login, "POST", token, 422, "error_email_provider_disabled_token.json",
      .passwordSignInDisabled, noPassword, providerCode: "email_provider_disabled"
    ).hinting("Enable the Email provider"),
    row(
      "email_provider_disabled on signup", signup, "POST", "/auth/v1/signup", 400,
      "error_email_provider_disabled_signup.json", .passwordSignInDisabled, noPassword,
      providerCode: "email_provider_disabled"
    ).hinting("Enable the Email provider"),
    row(
      "captcha_failed", login, "POST", token, 400, "error_captcha_failed.json", .configError,
      "The project requires a CAPTCHA, which authsh cannot solve.", providerCode: "captcha_failed"
    ).hinting("Turn off CAPTCHA protection"),
    row(
      "email_address_invalid", signup, "POST", "/auth/v1/signup", 400, "error_email_address_invalid.json",
      .validationFailed, "Email address \"ada@example.com\" is invalid", providerCode: "email_address_invalid"),
    row(
      "email_address_not_authorized (default SMTP)", reset, "POST", "/auth/v1/recover", 400,
      "error_email_address_not_authorized.json", .configError,
      "Supabase will not mail this address: a project on the built-in e-mail service only mails members of its team.",
      providerCode: "email_address_not_authorized"
    ).hinting("custom SMTP"),
    row(
      "over_request_rate_limit without Retry-After", login, "POST", token, 429, "error_over_request_rate_limit.json",
      .rateLimited, "Too many attempts. Please try again later.", providerCode: "over_request_rate_limit"),
  ]

  /// Bodies of servers before error codes (< v2.145) and OAuth-style answers (≤ v2.158), as
  /// self-hosted images still send them.
  static let olderServers: [ErrorCase] = [
    row(
      "invalid_grant Email not confirmed (≤ v2.158)", login, "POST", token, 400, "error_email_not_confirmed_oauth.json",
      .emailNotConfirmed, "Please verify your email. Check your inbox for a verification link.", headers: [],
      providerCode: "invalid_grant"),
    row(
      "User already registered without error_code (< v2.145)", signup, "POST", "/auth/v1/signup", 400,
      "error_user_already_registered_v2140.json", .userAlreadyExists,
      "An account with this email already exists. Try signing in instead.", headers: []),
    row(
      "weak password without error_code (< v2.145)", signup, "POST", "/auth/v1/signup", 422,
      "error_weak_password_v2140.json", .weakPassword, "Password should be at least 6 characters.", headers: []),
    row(
      "weak password without reasons (< v2.120)", signup, "POST", "/auth/v1/signup", 422,
      "error_weak_password_v2100.json", .weakPassword, "Password should be at least 6 characters", headers: []),
    row(
      "401 invalid JWT on /user (< v2.145)", "whoami", "GET", "/auth/v1/user", 401, "error_invalid_jwt_v2140.json",
      .sessionExpired, "You were logged out due to inactivity. Please log in again.", exit: 4, headers: [],
      signedIn: true),
    row(
      "recover once every 60 seconds (< v2.145)", reset, "POST", "/auth/v1/recover", 429,
      "error_recover_frequency_v2140.json", .rateLimited, "Too many reset requests. Try again in 1 minute.",
      headers: [], retryAfter: 60),
    row(
      "403 Signups not allowed (< v2.145)", signup, "POST", "/auth/v1/signup", 403,
      "error_signups_not_allowed_v2140.json", .signupDisabled, noSignup, headers: []),
  ]
}
