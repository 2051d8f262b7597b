/// A form field a validation error belongs to.
package enum Field: String, Sendable, CaseIterable {
  case email, password, name, confirm
}

package struct FieldError: Sendable, Equatable {
  package var field: Field
  package var code: String
  package var message: String
  package init(_ field: Field, code: String, message: String) {
    self.field = field
    self.code = code
    self.message = message
  }
}

/// Every failure authsh reports: a stable code, the specs' message, and what the backend said.
package struct AuthError: Error, Sendable, Equatable, CustomStringConvertible {
  package var code: ErrorCode
  package var message: String
  /// The backend's own code (`INVALID_LOGIN_CREDENTIALS`, `invalid_credentials`, …).
  package var providerCode: String?
  /// HTTP status, when there was a response.
  package var status: Int?
  package var retryAfterSeconds: Int?
  /// Per-field problems (validation), in form order.
  package var fields: [FieldError]
  /// Extra explanation shown with `--verbose` (e.g. why a response was malformed).
  package var detail: String?
  /// A hint shown under the message (e.g. how to fix a configuration).
  package var hint: String?
  /// The request never left this machine (refused, no route, no such host, no TLS, no client
  /// library): nothing can have been applied, so a batch does not count it as "may have been".
  package var neverSent = false

  package init(
    _ code: ErrorCode, message: String? = nil, providerCode: String? = nil, status: Int? = nil,
    retryAfterSeconds: Int? = nil, fields: [FieldError] = [], detail: String? = nil, hint: String? = nil
  ) {
    self.code = code
    self.message = message ?? AuthError.defaultMessage(for: code, retryAfterSeconds: retryAfterSeconds)
    self.providerCode = providerCode
    self.status = status
    self.retryAfterSeconds = retryAfterSeconds
    self.fields = fields
    self.detail = detail
    self.hint = hint
  }

  /// The message the specs show for a code.
  package static func defaultMessage(for code: ErrorCode, retryAfterSeconds: Int? = nil) -> String {
    switch code {
    case .invalidCredentials: return "Invalid email or password"
    case .userNotFound: return "Email not found. Please sign up first."
    case .emailNotConfirmed: return "Please verify your email. Check your inbox for a verification link."
    case .userAlreadyExists: return "An account with this email already exists. Try signing in instead."
    case .weakPassword: return "Password is too weak."
    case .userDisabled: return "This account has been disabled."
    case .rateLimited:
      guard let seconds = retryAfterSeconds else { return "Too many attempts. Please try again later." }
      return "Too many attempts. Please try again in \(minutes(seconds))."
    case .resetCooldown:
      return "Already sent, check your inbox. You can send another in \(retryAfterSeconds ?? 60) seconds."
    case .invalidCode: return "This reset link is invalid or has expired."
    case .notAuthenticated: return "You are not signed in."
    case .sessionExpired: return "You were logged out due to inactivity. Please log in again."
    case .networkUnreachable: return "No internet connection. Check your network."
    case .timeout: return "Connection timed out. Check your network and try again."
    case .serverError, .malformedResponse: return "Server error. Please try again later."
    case .invalidRequest: return "Invalid request. Please try again."
    case .validationFailed: return "Please correct the highlighted fields."
    case .passwordRequired: return "Password is required (use --password-env VAR, --password-stdin, or a terminal)."
    case .cancelled: return "Cancelled."
    case .noMail: return "No mail found."
    case .signupDisabled: return "Sign-ups are disabled for this project."
    case .passwordSignInDisabled: return "E-mail and password sign-in is disabled for this project."
    case .samePassword: return "The new password must be different from the current one."
    case .reauthenticationNeeded: return "Changing the password needs a recent sign-in. Log in again, then retry."
    case .readonlyProfile: return "This profile is read-only; the change was not sent."
    case .auditUnavailable: return "The audit log cannot be written; the change was not sent."
    case .sessionNotSaved: return "Signed in, but the session could not be saved."
    case .mfaRequired:
      return
        "This account needs a code from an authenticator app (use --code, --code-env VAR, --totp-secret-env VAR, or a terminal)."
    case .mfaInvalidCode: return "The code from the authenticator app is wrong or has expired."
    case .notFound: return "Not found; nothing was changed."
    case .outputNotWritten: return "The output file could not be written; nothing was left half-written."
    case .keyringUnavailable: return "The keyring that holds the session cannot be reached here; nothing was changed."
    default: return code.rawValue
    }
  }

  /// "1 minute", "3 minutes" (rounded up).
  package static func minutes(_ seconds: Int) -> String {
    let value = max(1, seconds / 60 + (seconds % 60 > 0 ? 1 : 0))
    return value == 1 ? "1 minute" : "\(value) minutes"
  }

  /// The same error with the wording the specs use on the password-reset screen.
  package func inResetContext() -> AuthError {
    var copy = self
    switch code {
    case .userNotFound: copy.message = "Email not found. Try signing up instead."
    case .rateLimited:
      copy.message =
        retryAfterSeconds.map { "Too many reset requests. Try again in \(AuthError.minutes($0))." }
        ?? "Too many reset requests. Try again later."
    default: break
    }
    return copy
  }

  package func field(_ field: Field) -> FieldError? { fields.first { $0.field == field } }

  /// Transport and server failures (exit 3 for one-shot commands).
  package var isBackendFailure: Bool {
    [.networkUnreachable, .timeout, .serverError, .malformedResponse].contains(code)
  }

  /// A request that was sent and got no answer (or none that can be read): what it asked may
  /// have been done (a batch's `unknown`).
  package var isNoAnswer: Bool {
    !neverSent && [.timeout, .networkUnreachable, .malformedResponse, .cancelled].contains(code)
  }

  /// The codes of failures that may go through when the same request is sent again later (a rate
  /// limit, an outage, an interruption): what `--resume` tries again.
  package static let mayPassLaterCodes: Set<String> = Set(
    [ErrorCode.rateLimited, .timeout, .networkUnreachable, .serverError, .malformedResponse, .cancelled].map(\.rawValue)
  )

  /// A request that never reached the backend, as a batch's outcome said it (`message`).
  package static func unreachable(_ message: String?) -> AuthError {
    var error = AuthError(.networkUnreachable, message: message)
    error.neverSent = true
    return error
  }

  /// Stopped before anything was sent (a confirmation answered no, or not at all): nothing "may
  /// have been applied".
  package static func cancelledBeforeSending(_ message: String? = nil) -> AuthError {
    var error = AuthError(.cancelled, message: message)
    error.neverSent = true
    return error
  }

  /// Not signed in / session gone (exit 4 for one-shot `whoami`, `logout`, `refresh`).
  package var isAuthenticationRequired: Bool { code == .notAuthenticated || code == .sessionExpired }
}

extension AuthError {
  /// The message, as a person reads it: an error shown through `"\(error)"` (a wrapper's reason,
  /// a log line) is never the structure's dump with its code and empty fields.
  package var description: String { message }
}
