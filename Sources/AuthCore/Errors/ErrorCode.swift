/// A stable error code (`expect error CODE`, `--json`, exit codes). Open: backend codes authsh
/// does not know still travel as `provider_code` under `provider_error`.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }
  public var description: String { rawValue }

  public static let invalidCredentials: ErrorCode = "invalid_credentials"
  public static let userNotFound: ErrorCode = "user_not_found"
  public static let emailNotConfirmed: ErrorCode = "email_not_confirmed"
  public static let userAlreadyExists: ErrorCode = "user_already_exists"
  public static let weakPassword: ErrorCode = "weak_password"
  public static let userDisabled: ErrorCode = "user_disabled"
  public static let rateLimited: ErrorCode = "rate_limited"
  public static let resetCooldown: ErrorCode = "reset_cooldown"
  public static let invalidCode: ErrorCode = "invalid_code"
  public static let notAuthenticated: ErrorCode = "not_authenticated"
  public static let sessionExpired: ErrorCode = "session_expired"
  public static let networkUnreachable: ErrorCode = "network_unreachable"
  public static let timeout: ErrorCode = "timeout"
  public static let serverError: ErrorCode = "server_error"
  public static let malformedResponse: ErrorCode = "malformed_response"
  public static let invalidRequest: ErrorCode = "invalid_request"
  public static let configError: ErrorCode = "config_error"
  public static let insecureURL: ErrorCode = "insecure_url"
  public static let validationFailed: ErrorCode = "validation_failed"
  public static let passwordRequired: ErrorCode = "password_required"
  public static let providerError: ErrorCode = "provider_error"
  public static let usage: ErrorCode = "usage_error"
  public static let cancelled: ErrorCode = "cancelled"
  public static let notSupported: ErrorCode = "not_supported"
  public static let noMail: ErrorCode = "no_mail"
  /// The project does not accept new sign-ups.
  public static let signupDisabled: ErrorCode = "signup_disabled"
  /// E-mail/password sign-in is turned off for the project.
  public static let passwordSignInDisabled: ErrorCode = "password_sign_in_disabled"
  /// The new password equals the current one.
  public static let samePassword: ErrorCode = "same_password"
  /// The backend wants a fresh sign-in (or the current password) before changing the password.
  public static let reauthenticationNeeded: ErrorCode = "reauthentication_needed"
  /// A command that changes accounts was refused on a `readonly = true` profile (nothing sent).
  public static let readonlyProfile: ErrorCode = "readonly_profile"
  /// The audit log cannot be written, so a change was not sent (or, when it was made, not recorded).
  public static let auditUnavailable: ErrorCode = "audit_unavailable"
  /// The server signed the user in (or created the account) but the session could not be written.
  public static let sessionNotSaved: ErrorCode = "session_not_saved"
  /// The account needs a second factor and the command had no way to get a code.
  public static let mfaRequired: ErrorCode = "mfa_required"
  /// The second-factor code was refused.
  public static let mfaInvalidCode: ErrorCode = "mfa_invalid_code"

  /// Every code the catalogue defines, for checkers and completion of `expect error`.
  public static let catalogue: [ErrorCode] = [
    .invalidCredentials, .userNotFound, .emailNotConfirmed, .userAlreadyExists, .weakPassword, .userDisabled,
    .rateLimited, .resetCooldown, .invalidCode, .notAuthenticated, .sessionExpired, .networkUnreachable, .timeout,
    .serverError, .malformedResponse, .invalidRequest, .configError, .insecureURL, .validationFailed,
    .passwordRequired, .providerError, .usage, .cancelled, .notSupported, .noMail, .signupDisabled,
    .passwordSignInDisabled, .samePassword, .reauthenticationNeeded, .readonlyProfile,
    .auditUnavailable, .sessionNotSaved, .mfaRequired, .mfaInvalidCode,
  ]
}
