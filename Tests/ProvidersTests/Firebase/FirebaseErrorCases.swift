import AuthCore

/// Catalogue rows as Identity Toolkit answers them: envelopes with and without
/// ` : detail`, API-key errors, securetoken errors, HTML, truncated and mistyped JSON.
enum FirebaseErrorCases {
  static let login = "login ada@example.com --password correct-horse-battery"
  static let signup = "signup ada@example.com --name Ada --password correct-horse-battery"
  static let signIn = "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword"
  static let lookup = "/identitytoolkit.googleapis.com/v1/accounts:lookup"
  static let token = "/securetoken.googleapis.com/v1/token"
  static let expired = "You were logged out due to inactivity. Please log in again."

  static func row(
    _ name: String, _ line: String, _ path: String, _ status: Int, _ fixture: String?, _ code: ErrorCode,
    _ message: String,
    exit: Int32 = 1, providerCode: String? = nil, signedIn: Bool = false, contentType: String = "application/json"
  ) -> ErrorCase {
    ErrorCase(
      name: name, provider: .firebase, line: line, method: "POST", path: path, status: status,
      fixture: fixture.map { "firebase/" + $0 }, contentType: contentType, signedIn: signedIn, code: code,
      message: message,
      exit: exit, providerCode: providerCode)
  }

  static func accounts(_ op: String) -> String { "/identitytoolkit.googleapis.com/v1/accounts:" + op }

  static let all: [ErrorCase] =
    [
      row(
        "INVALID_LOGIN_CREDENTIALS", login, signIn, 400, "error_INVALID_LOGIN_CREDENTIALS.json", .invalidCredentials,
        "Invalid email or password", providerCode: "INVALID_LOGIN_CREDENTIALS"),
      row(
        "INVALID_PASSWORD", login, signIn, 400, "error_INVALID_PASSWORD.json", .invalidCredentials,
        "Invalid email or password", providerCode: "INVALID_PASSWORD"),
      row(
        "EMAIL_NOT_FOUND on login", login, signIn, 400, "error_EMAIL_NOT_FOUND.json", .userNotFound,
        "Email not found. Please sign up first."),
      row(
        "EMAIL_NOT_FOUND on reset", "reset ada@example.com", accounts("sendOobCode"), 400, "error_EMAIL_NOT_FOUND.json",
        .userNotFound, "Email not found. Try signing up instead."),
      row(
        "EMAIL_EXISTS", signup, accounts("signUp"), 400, "error_EMAIL_EXISTS.json", .userAlreadyExists,
        "An account with this email already exists. Try signing in instead."),
      row(
        "WEAK_PASSWORD : detail", signup, accounts("signUp"), 400, "error_WEAK_PASSWORD.json", .weakPassword,
        "Password should be at least 6 characters", providerCode: "WEAK_PASSWORD"),
      row(
        "USER_DISABLED", login, signIn, 400, "error_USER_DISABLED.json", .userDisabled,
        "This account has been disabled."),
      row(
        "TOO_MANY_ATTEMPTS_TRY_LATER : detail", login, signIn, 400, "error_TOO_MANY_ATTEMPTS_TRY_LATER.json",
        .rateLimited, "Too many attempts. Please try again later.", providerCode: "TOO_MANY_ATTEMPTS_TRY_LATER"),
      row(
        "RESET_PASSWORD_EXCEED_LIMIT", "reset ada@example.com", accounts("sendOobCode"), 400,
        "error_RESET_PASSWORD_EXCEED_LIMIT.json", .rateLimited, "Too many reset requests. Try again later."),
      row(
        "INVALID_OOB_CODE", "reset confirm abc --password new-password-1", accounts("resetPassword"), 400,
        "error_INVALID_OOB_CODE.json", .invalidCode, "This reset link is invalid or has expired."),
      row(
        "EXPIRED_OOB_CODE", "reset confirm abc --password new-password-1", accounts("resetPassword"), 400,
        "error_EXPIRED_OOB_CODE.json", .invalidCode, "This reset link is invalid or has expired."),
      // mfa enroll for an address not verified: the catalogue's code, with the fix.
      row(
        "UNVERIFIED_EMAIL on mfa enroll", "mfa enroll --self-verify",
        "/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:start", 400, "error_UNVERIFIED_EMAIL.json",
        .emailNotConfirmed,
        "Confirm the e-mail address first: Firebase enrolls a second factor only for a verified address.",
        providerCode: "UNVERIFIED_EMAIL", signedIn: true),
      row(
        "INVALID_REFRESH_TOKEN", "refresh", token, 400, "error_INVALID_REFRESH_TOKEN.json", .sessionExpired, expired,
        exit: 4, signedIn: true),
      row(
        "TOKEN_EXPIRED on refresh", "refresh", token, 400, "error_TOKEN_EXPIRED.json", .sessionExpired,
        SessionEnd.revokedMessage, exit: 4, signedIn: true),
      row(
        "TOKEN_EXPIRED on lookup", "whoami", lookup, 400, "error_TOKEN_EXPIRED.json", .sessionExpired, expired, exit: 4,
        signedIn: true),
      row(
        "INVALID_ID_TOKEN", "whoami", lookup, 400, "error_INVALID_ID_TOKEN.json", .sessionExpired, expired, exit: 4,
        signedIn: true),
      row(
        "USER_NOT_FOUND on lookup", "whoami", lookup, 400, "error_USER_NOT_FOUND.json", .sessionExpired,
        SessionEnd.userDeletedMessage, exit: 4, signedIn: true),
      row(
        "INVALID_ARGUMENT", login, signIn, 400, "error_INVALID_ARGUMENT.json", .invalidRequest,
        "Invalid request. Please try again."),
      row(
        "MISSING_PASSWORD", login, signIn, 400, "error_MISSING_PASSWORD.json", .invalidRequest,
        "Invalid request. Please try again."),
      row(
        "API key not valid", login, signIn, 400, "error_API_KEY_INVALID.json", .configError,
        "The Firebase API key was rejected (API key not valid).", providerCode: "API_KEY_INVALID"),
      row(
        "missing API key (403)", login, signIn, 403, "error_MISSING_API_KEY.json", .configError,
        "The request had no valid Firebase API key."),
      row("500", login, signIn, 500, nil, .serverError, "Server error. Please try again later.", exit: 3),
      row(
        "HTML 502 page", login, signIn, 502, "../supabase/html_502.html", .serverError,
        "Server error. Please try again later.", exit: 3, contentType: "text/html"),
      row(
        "truncated JSON", login, signIn, 200, "truncated_signin.json", .malformedResponse,
        "Server error. Please try again later.", exit: 3),
      row(
        "JSON with wrong types", login, signIn, 200, "wrong_types_signin.json", .malformedResponse,
        "Server error. Please try again later.", exit: 3),
      row(
        "unknown code passes through", login, signIn, 400, "error_UNKNOWN.json", .providerError,
        "UNSUPPORTED_TENANT_OPERATION", providerCode: "UNSUPPORTED_TENANT_OPERATION"),
    ] + production

  static let noPassword = "E-mail and password sign-in is disabled for this project."

  /// Shapes only production sends: Secure Token errors with "status": "INVALID_ARGUMENT" and no
  /// `errors[]`, quota and project-setup codes.
  static let production: [ErrorCase] = [
    // The refresh token itself was revoked (password changed, revokeRefreshTokens): say so.
    row(
      "TOKEN_EXPIRED from production securetoken", "refresh", token, 400, "error_TOKEN_EXPIRED_securetoken.json",
      .sessionExpired, SessionEnd.revokedMessage, exit: 4, providerCode: "TOKEN_EXPIRED", signedIn: true),
    row(
      "INVALID_REFRESH_TOKEN from production securetoken", "refresh", token, 400,
      "error_INVALID_REFRESH_TOKEN_securetoken.json", .sessionExpired, expired, exit: 4,
      providerCode: "INVALID_REFRESH_TOKEN", signedIn: true),
    row(
      "USER_NOT_FOUND from production securetoken", "refresh", token, 400, "error_USER_NOT_FOUND_securetoken.json",
      .sessionExpired, SessionEnd.userDeletedMessage, exit: 4, providerCode: "USER_NOT_FOUND", signedIn: true),
    row(
      "USER_DISABLED from production securetoken", "refresh", token, 400, "error_USER_DISABLED_securetoken.json",
      .userDisabled, "This account has been disabled.", providerCode: "USER_DISABLED", signedIn: true),
    row(
      "QUOTA_EXCEEDED", login, signIn, 400, "error_QUOTA_EXCEEDED.json", .rateLimited,
      "Too many attempts. Please try again later.", providerCode: "QUOTA_EXCEEDED"),
    row(
      "OPERATION_NOT_ALLOWED", signup, accounts("signUp"), 400, "error_OPERATION_NOT_ALLOWED.json",
      .passwordSignInDisabled, noPassword, providerCode: "OPERATION_NOT_ALLOWED"
    ).hinting("Enable Email/Password"),
    row(
      "PASSWORD_LOGIN_DISABLED", login, signIn, 400, "error_PASSWORD_LOGIN_DISABLED.json", .passwordSignInDisabled,
      noPassword, providerCode: "PASSWORD_LOGIN_DISABLED"
    ).hinting("Enable Email/Password"),
    row(
      "ADMIN_ONLY_OPERATION", signup, accounts("signUp"), 400, "error_ADMIN_ONLY_OPERATION.json", .signupDisabled,
      "Sign-ups are disabled for this project.", providerCode: "ADMIN_ONLY_OPERATION"
    ).hinting("Allow sign-up"),
    row(
      "CONFIGURATION_NOT_FOUND", login, signIn, 400, "error_CONFIGURATION_NOT_FOUND.json", .configError,
      "Firebase Authentication is not set up for this project.", providerCode: "CONFIGURATION_NOT_FOUND"
    ).hinting("Get started"),
    row(
      "PROJECT_NOT_FOUND", login, signIn, 400, "error_PROJECT_NOT_FOUND.json", .configError,
      "The Firebase project of this API key was not found.", providerCode: "PROJECT_NOT_FOUND"),
  ]
}
