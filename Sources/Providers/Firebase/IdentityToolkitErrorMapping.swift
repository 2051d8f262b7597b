import AuthCore
import JSONKit

/// Identity Toolkit / Secure Token error envelopes (`{"error":{"code","message","errors"}}`, and
/// production's Secure Token shape with `status` and no `errors`) → `AuthError`.
enum IdentityToolkitErrorMapping {
  enum Call { case signUp, signIn, sendOobCode, resetPassword, lookup, update, refresh, mfa, phone, other }

  static func error(from response: HTTPResponse, call: Call) -> AuthError {
    if response.status >= 500 { return WireBody.serverError(response) }
    guard let json = try? JSON.parse(bytes: response.body), let envelope = json["error"] else {
      if response.status == 429 {
        return AuthError(.rateLimited, status: 429, retryAfterSeconds: WireBody.retryAfter(response))
      }
      return AuthError(
        .malformedResponse, status: response.status,
        detail: "error body is not the Google envelope: \(WireBody.snippet(response))")
    }
    // The OAuth-style error of securetoken: {"error":"invalid_grant","error_description":"…"}.
    let message = envelope["message"]?.string ?? envelope.string ?? json["error_description"]?.string ?? ""
    let (code, detail) = split(message)
    var mapped = map(
      code: code, detail: detail, message: message, envelope: envelope, status: response.status, call: call)
    mapped.providerCode = mapped.providerCode ?? code
    mapped.status = response.status
    if response.status == 429, mapped.retryAfterSeconds == nil {
      mapped.retryAfterSeconds = WireBody.retryAfter(response)
    }
    return mapped
  }

  /// `"WEAK_PASSWORD : Password should be …"` → ("WEAK_PASSWORD", "Password should be …").
  static func split(_ message: String) -> (code: String, detail: String?) {
    guard let range = message.firstRange(of: " : ") else { return (message.trimmingWhitespace, nil) }
    return (
      String(message[..<range.lowerBound]).trimmingWhitespace, String(message[range.upperBound...]).trimmingWhitespace
    )
  }

  private static func map(code: String, detail: String?, message: String, envelope: JSON, status: Int, call: Call)
    -> AuthError
  {
    let reasons = (envelope["details"]?.array ?? []).compactMap { $0["reason"]?.string }
    if reasons.contains("API_KEY_INVALID") || message.hasPrefix("API key not valid") {
      return AuthError(
        .configError, message: "The Firebase API key was rejected (API key not valid).",
        providerCode: "API_KEY_INVALID",
        hint: "Check FIREBASE_API_KEY / --key: use the Web API key of the project.")
    }
    if status == 403, message.contains("missing a valid API key") {
      return AuthError(
        .configError, message: "The request had no valid Firebase API key.", providerCode: "PERMISSION_DENIED",
        hint: "Set FIREBASE_API_KEY or pass --key.")
    }
    // The code in the message decides; `status` is only a fallback. Production Secure Token errors
    // carry "status": "INVALID_ARGUMENT" on TOKEN_EXPIRED, INVALID_REFRESH_TOKEN, USER_DISABLED, …
    if let known = known(code: code, detail: detail, message: message, call: call) { return known }
    if envelope["status"]?.string == "INVALID_ARGUMENT" || message.hasPrefix("Invalid JSON payload") {
      return AuthError(.invalidRequest, providerCode: "INVALID_ARGUMENT", detail: message)
    }
    if code.hasPrefix("MISSING_") { return AuthError(.invalidRequest, message: detail, detail: message) }
    if call == .refresh, status == 400 || status == 401 || status == 403 { return AuthError(.sessionExpired) }
    return AuthError(
      .providerError,
      message: detail ?? (message.isEmpty ? "The server refused the request (HTTP \(status))." : message),
      providerCode: code.isEmpty ? nil : code)
  }

  /// The codes authsh knows, whatever envelope they came in.
  private static func known(code: String, detail: String?, message: String, call: Call) -> AuthError? {
    if let project = IdentityToolkitProjectErrors.map(code: code, detail: detail) { return project }
    switch code {
    case "INVALID_LOGIN_CREDENTIALS", "INVALID_PASSWORD": return AuthError(.invalidCredentials)
    case "EMAIL_NOT_FOUND": return AuthError(.userNotFound)
    case "USER_NOT_FOUND":
      return call == .lookup || call == .refresh || call == .update
        ? AuthError(.sessionExpired) : AuthError(.userNotFound)
    case "EMAIL_EXISTS": return AuthError(.userAlreadyExists)
    case "WEAK_PASSWORD", "PASSWORD_DOES_NOT_MEET_REQUIREMENTS":
      return AuthError(.weakPassword, message: detail ?? message)
    case "USER_DISABLED": return AuthError(.userDisabled)
    case "UNVERIFIED_EMAIL":
      // mfaEnrollment:start for an account whose address is not verified.
      return AuthError(
        .emailNotConfirmed,
        message: "Confirm the e-mail address first: Firebase enrolls a second factor only for a verified address.",
        hint:
          "Open the verification link sent to the address, then run mfa enroll again (support can mark it confirmed: authsh user confirm EMAIL)."
      )
    case "TOO_MANY_ATTEMPTS_TRY_LATER", "RESET_PASSWORD_EXCEED_LIMIT", "QUOTA_EXCEEDED": return AuthError(.rateLimited)
    case "INVALID_OOB_CODE", "EXPIRED_OOB_CODE": return AuthError(.invalidCode)
    case "INVALID_CODE", "SESSION_EXPIRED",
      "INVALID_SESSION_INFO" where call == .phone:
      return AuthError(.invalidCode, message: PhoneVerification.invalidCodeMessage)
    case "INVALID_PHONE_NUMBER":
      return AuthError(
        .invalidRequest, message: "Invalid phone number: use E.164 form, such as +15551234567.", detail: message)
    case "TOKEN_EXPIRED", "INVALID_REFRESH_TOKEN", "INVALID_ID_TOKEN", "CREDENTIAL_TOO_OLD_LOGIN_AGAIN",
      "invalid_grant":
      return AuthError(.sessionExpired)
    case "INVALID_ARGUMENT", "INVALID_EMAIL", "INVALID_REQ_TYPE", "INVALID_GRANT_TYPE":
      return AuthError(.invalidRequest, message: detail, detail: message)
    default:
      return nil
    }
  }
}
