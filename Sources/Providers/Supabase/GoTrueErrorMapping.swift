import AuthCore
import Essentials
import JSONKit

/// GoTrue error answers → `AuthError`. Reads all three body shapes GoTrue sends (legacy
/// `{code: status, error_code, msg}`, versioned `{code: "…", message}` when it echoes
/// `X-Supabase-Api-Version`, and OAuth-style `{error, error_description}`),
/// and the bodies of servers older than error codes (classified by their message).
enum GoTrueErrorMapping {
  /// Which call failed: the same backend code can mean different things (a 403 `bad_jwt` on
  /// `/user` means the session is gone; on sign-in it cannot happen).
  enum Call { case signUp, signIn, recover, verify, user, refresh, logout, mfa, other }

  static func error(from response: HTTPResponse, call: Call) -> AuthError {
    if response.status >= 500 { return WireBody.serverError(response) }
    guard let json = try? JSON.parse(bytes: response.body), json.object != nil else {
      if response.status == 404 {
        return AuthError(
          .configError, message: "The URL does not look like a Supabase Auth API (HTTP 404).", status: 404,
          hint: "Check SUPABASE_URL / --url: it should be the project URL, e.g. https://abcd.supabase.co")
      }
      if response.status == 429 { return rateLimited(nil, response: response, providerCode: nil) }
      return AuthError(
        .malformedResponse, status: response.status, detail: "error body is not JSON: \(WireBody.snippet(response))")
    }
    let providerCode = code(of: json)
    let backendMessage =
      json["msg"]?.string ?? json["message"]?.string ?? json["error_description"]?.string
      ?? json["error"]?.string ?? ""
    // Servers before error codes (< v2.145) and the OAuth-style `invalid_grant` (≤ v2.158) say it in words.
    let effectiveCode =
      providerCode == nil || providerCode == "invalid_grant"
      ? GoTrueLegacyCodes.code(message: backendMessage, json: json) ?? providerCode
      : providerCode
    var mapped = map(
      code: effectiveCode, message: backendMessage, status: response.status, call: call, response: response)
    mapped.providerCode = mapped.providerCode ?? providerCode
    mapped.status = response.status
    if mapped.detail == nil, !backendMessage.isEmpty, mapped.message != backendMessage {
      mapped.detail = backendMessage
    }
    return mapped
  }

  /// `code` when it is a string (2024-01-01 format), else `error_code` (legacy), else OAuth `error`.
  static func code(of json: JSON) -> String? {
    json["code"]?.string ?? json["error_code"]?.string ?? json["error"]?.string
  }

  private static func map(code: String?, message: String, status: Int, call: Call, response: HTTPResponse) -> AuthError
  {
    if let known = GoTrueProjectErrors.map(code: code, message: message) { return known }
    switch code {
    case "invalid_credentials": return AuthError(.invalidCredentials)
    case "email_not_confirmed": return AuthError(.emailNotConfirmed)
    case "user_already_exists", "email_exists": return AuthError(.userAlreadyExists)
    case "weak_password": return AuthError(.weakPassword, message: message.isEmpty ? nil : message)
    case "user_banned": return AuthError(.userDisabled)
    case "over_request_rate_limit", "over_email_send_rate_limit", "over_sms_send_rate_limit":
      return rateLimited(message, response: response, providerCode: code)
    case "otp_expired": return AuthError(.invalidCode)
    // A PKCE code that is unknown, used, older than five minutes, or not this verifier's.
    case "flow_state_not_found", "flow_state_expired", "flow_state_already_used", "bad_code_verifier":
      return AuthError(.invalidCode)
    case "mfa_verification_failed", "mfa_challenge_expired": return AuthError(.mfaInvalidCode)
    case "insufficient_aal":
      return AuthError(
        .providerError, message: "This needs a session signed in with the second factor (aal2).",
        hint: "Log in again and give the authenticator code, then retry.")
    case "refresh_token_not_found", "refresh_token_already_used", "session_not_found", "session_expired", "bad_jwt",
      "no_authorization":
      return AuthError(.sessionExpired)
    case "user_not_found" where call == .user || call == .logout || call == .refresh:
      return AuthError(.sessionExpired)
    case "validation_failed" where call == .refresh:
      return AuthError(.sessionExpired)
    case "invalid_grant" where call == .refresh:
      return AuthError(.sessionExpired)
    case "conflict" where call == .refresh:
      // Another refresh of the same session held the lock: transient (the provider retries once).
      return AuthError(.serverError)
    case "validation_failed", "bad_json", "request_entity_too_large":
      // The server's sentence ("Password cannot be longer than 72 characters") says what to fix.
      return AuthError(.invalidRequest, message: message.isEmpty ? nil : message)
    default: break
    }
    if status == 401, message.lowercased().contains("invalid api key") || message.lowercased().contains("no api key") {
      return AuthError(
        .configError, message: "The Supabase API key was rejected (\(message)).",
        providerCode: code ?? "invalid_api_key",
        hint: "Check SUPABASE_ANON_KEY / --key: use the project's anon (publishable) key.")
    }
    if status == 429 { return rateLimited(message, response: response, providerCode: code) }
    if call == .refresh, status == 400 || status == 401 || status == 403 { return AuthError(.sessionExpired) }
    return AuthError(
      .providerError, message: message.isEmpty ? "The server refused the request (HTTP \(status))." : message,
      providerCode: code)
  }

  /// 429: "…only request this after N seconds." (older servers: "…once every 60 seconds" or
  /// "…once every minute") or a Retry-After header.
  static func rateLimited(_ message: String?, response: HTTPResponse, providerCode: String?) -> AuthError {
    var seconds = WireBody.retryAfter(response)
    if seconds == nil, let message {
      for marker in ["after ", "every "] {
        guard let range = message.firstRange(of: marker) else { continue }
        let digits = message[range.upperBound...].prefix { $0.isNumber }
        seconds = Int(digits) ?? (message[range.upperBound...].hasPrefix("minute") ? 60 : nil)
        if seconds != nil { break }
      }
    }
    return AuthError(.rateLimited, providerCode: providerCode, retryAfterSeconds: seconds)
  }
}
