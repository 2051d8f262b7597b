/// A stable error code (`expect error CODE`, `--json`, exit codes). Open: backend codes authsh
/// does not know still travel as `provider_code` under `provider_error`.
package struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
  package let rawValue: String
  package init(rawValue: String) { self.rawValue = rawValue }
  package init(_ rawValue: String) { self.rawValue = rawValue }
  package init(stringLiteral value: String) { self.rawValue = value }
  package var description: String { rawValue }

  /// Every code authsh defines: the catalogue is this list (`help errors`, the checker of
  /// `expect error`, completion), so a new code is one case here and one constant below.
  package enum Known: String, CaseIterable, Sendable {
    case invalidCredentials = "invalid_credentials"
    case userNotFound = "user_not_found"
    case emailNotConfirmed = "email_not_confirmed"
    case userAlreadyExists = "user_already_exists"
    case weakPassword = "weak_password"
    case userDisabled = "user_disabled"
    case rateLimited = "rate_limited"
    case resetCooldown = "reset_cooldown"
    case invalidCode = "invalid_code"
    case notAuthenticated = "not_authenticated"
    case sessionExpired = "session_expired"
    case networkUnreachable = "network_unreachable"
    case timeout = "timeout"
    case serverError = "server_error"
    case malformedResponse = "malformed_response"
    case invalidRequest = "invalid_request"
    case configError = "config_error"
    case insecureURL = "insecure_url"
    case validationFailed = "validation_failed"
    case passwordRequired = "password_required"
    case providerError = "provider_error"
    case usage = "usage_error"
    case cancelled = "cancelled"
    case notSupported = "not_supported"
    case noMail = "no_mail"
    /// The project does not accept new sign-ups.
    case signupDisabled = "signup_disabled"
    /// E-mail/password sign-in is turned off for the project.
    case passwordSignInDisabled = "password_sign_in_disabled"
    /// The new password equals the current one.
    case samePassword = "same_password"
    /// The backend wants a fresh sign-in (or the current password) before changing the password.
    case reauthenticationNeeded = "reauthentication_needed"
    /// A command that changes accounts was refused on a `readonly = true` profile (nothing sent).
    case readonlyProfile = "readonly_profile"
    /// The audit log cannot be written, so a change was not sent (or, when it was made, not recorded).
    case auditUnavailable = "audit_unavailable"
    /// The server signed the user in (or created the account) but the session could not be written.
    case sessionNotSaved = "session_not_saved"
    /// The account needs a second factor and the command had no way to get a code.
    case mfaRequired = "mfa_required"
    /// The second-factor code was refused.
    case mfaInvalidCode = "mfa_invalid_code"
    /// A file given to read (an account export) is not of any shape authsh reads (exit 65).
    case invalidFile = "invalid_file"
    /// The keyring that holds the session cannot be reached now (no D-Bus session, locked): try
    /// again where it can be (EX_TEMPFAIL).
    case keyringUnavailable = "keyring_unavailable"
    /// The file a command writes could not be written: `user export --output` (none is left
    /// half-written), or the `--report` of a bulk change or import once it was under way.
    case outputNotWritten = "output_not_written"
    /// What the command was to act on, other than an account, is not there (`secret delete NAME`).
    case notFound = "not_found"
  }

  package init(_ known: Known) { self.rawValue = known.rawValue }

  package static let invalidCredentials = ErrorCode(Known.invalidCredentials)
  package static let userNotFound = ErrorCode(Known.userNotFound)
  package static let emailNotConfirmed = ErrorCode(Known.emailNotConfirmed)
  package static let userAlreadyExists = ErrorCode(Known.userAlreadyExists)
  package static let weakPassword = ErrorCode(Known.weakPassword)
  package static let userDisabled = ErrorCode(Known.userDisabled)
  package static let rateLimited = ErrorCode(Known.rateLimited)
  package static let resetCooldown = ErrorCode(Known.resetCooldown)
  package static let invalidCode = ErrorCode(Known.invalidCode)
  package static let notAuthenticated = ErrorCode(Known.notAuthenticated)
  package static let sessionExpired = ErrorCode(Known.sessionExpired)
  package static let networkUnreachable = ErrorCode(Known.networkUnreachable)
  package static let timeout = ErrorCode(Known.timeout)
  package static let serverError = ErrorCode(Known.serverError)
  package static let malformedResponse = ErrorCode(Known.malformedResponse)
  package static let invalidRequest = ErrorCode(Known.invalidRequest)
  package static let configError = ErrorCode(Known.configError)
  package static let insecureURL = ErrorCode(Known.insecureURL)
  package static let validationFailed = ErrorCode(Known.validationFailed)
  package static let passwordRequired = ErrorCode(Known.passwordRequired)
  package static let providerError = ErrorCode(Known.providerError)
  package static let usage = ErrorCode(Known.usage)
  package static let cancelled = ErrorCode(Known.cancelled)
  package static let notSupported = ErrorCode(Known.notSupported)
  package static let noMail = ErrorCode(Known.noMail)
  package static let signupDisabled = ErrorCode(Known.signupDisabled)
  package static let passwordSignInDisabled = ErrorCode(Known.passwordSignInDisabled)
  package static let samePassword = ErrorCode(Known.samePassword)
  package static let reauthenticationNeeded = ErrorCode(Known.reauthenticationNeeded)
  package static let readonlyProfile = ErrorCode(Known.readonlyProfile)
  package static let auditUnavailable = ErrorCode(Known.auditUnavailable)
  package static let sessionNotSaved = ErrorCode(Known.sessionNotSaved)
  package static let mfaRequired = ErrorCode(Known.mfaRequired)
  package static let mfaInvalidCode = ErrorCode(Known.mfaInvalidCode)
  package static let invalidFile = ErrorCode(Known.invalidFile)
  package static let keyringUnavailable = ErrorCode(Known.keyringUnavailable)
  package static let outputNotWritten = ErrorCode(Known.outputNotWritten)
  package static let notFound = ErrorCode(Known.notFound)

  /// Every code the catalogue defines, for checkers and completion of `expect error`.
  package static let catalogue: [ErrorCode] = Known.allCases.map { ErrorCode($0) }
}
