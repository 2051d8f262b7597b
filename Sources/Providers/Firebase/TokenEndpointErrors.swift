import AuthCore
import Essentials
import JSONKit

/// Google's token endpoint errors (`{"error":"invalid_grant","error_description":"…"}`) and IAM
/// Credentials' as `config_error`s that name the credential and say what to do. The status is
/// kept, so the exit status is 1 (the backend answered), not the one for a problem found before
/// sending.
enum TokenEndpointErrors {
  static func map(_ response: HTTPResponse, account: ServiceAccount, now: Date = Date()) -> AuthError {
    let (code, description) = parse(response)
    let lowered = description.lowercased()
    let who = "the service account \(account.clientEmail)"
    let newKey =
      "Create a new key (Firebase console › Project settings › Service accounts › Generate new private key) and point GOOGLE_APPLICATION_CREDENTIALS or credentials_file at it."
    func error(_ message: String, _ hint: String) -> AuthError {
      make(response, code: code, description: description, message: message, hint: hint)
    }
    switch code {
    case "invalid_grant":
      if lowered.contains("short-lived") || lowered.contains("timeframe") || lowered.contains("iat") {
        return error(
          "Google refused the sign-in of \(who): the assertion's time is not accepted (clock skew)."
            + skew(response, now: now),
          "Check this computer's clock (e.g. timedatectl; enable NTP) and retry.")
      }
      if lowered.contains("disabled") {
        return error(
          "Google refused the sign-in of \(who): the account or its key is disabled.",
          "Enable it in the Google Cloud console › IAM › Service accounts, or \(newKey)")
      }
      if lowered.contains("not found") || lowered.contains("deleted") {
        return error("Google refused the sign-in of \(who): the account does not exist (deleted?).", newKey)
      }
      return error(
        "Google refused the sign-in of \(who): the key in \(account.path) is revoked, deleted or not this account's."
          + skew(response, now: now),
        newKey)
    case "invalid_client":
      return error(
        "Google does not know \(who) (invalid_client): the account or key was deleted, or the file is damaged.", newKey)
    case "unauthorized_client":
      return error(
        "Google refused \(who) (unauthorized_client): it may not get access tokens this way or for these scopes.",
        "Check that the key belongs to a service account of the project and that the account is enabled; or \(newKey)")
    default:
      if response.status >= 500 { return WireBody.serverError(response) }
      return error(
        "Google's token endpoint refused \(who) (HTTP \(response.status)\(code.map { ": \($0)" } ?? "")).",
        "Check the service-account file \(account.path); or \(newKey)")
    }
  }

  /// The refresh-token grant of a user's Application Default Credentials.
  static func mapUser(_ response: HTTPResponse, user: AuthorizedUser, now: Date = Date()) -> AuthError {
    let (code, description) = parse(response)
    let again = "Run `gcloud auth application-default login` again (it rewrites \(user.path))."
    switch code {
    case "invalid_grant":
      return make(
        response, code: code, description: description,
        message: "Google refused the user credentials in \(user.path): the refresh token has expired or was revoked."
          + skew(response, now: now),
        hint: again)
    case "invalid_client", "unauthorized_client":
      return make(
        response, code: code, description: description,
        message: "Google does not accept the OAuth client of the user credentials in \(user.path) (\(code ?? "")).",
        hint: again)
    default:
      if response.status >= 500 { return WireBody.serverError(response) }
      return make(
        response, code: code, description: description,
        message:
          "Google's token endpoint refused the user credentials in \(user.path) (HTTP \(response.status)\(code.map { ": \($0)" } ?? "")).",
        hint: again)
    }
  }

  /// IAM Credentials' `generateAccessToken` (`{"error":{"code":403,"message":…,"status":"PERMISSION_DENIED"}}`).
  static func mapImpersonation(_ response: HTTPResponse, impersonated: ImpersonatedServiceAccount) -> AuthError {
    let json = try? JSON.parse(bytes: response.body)
    let status = json?["error"]?["status"]?.string
    let message = json?["error"]?["message"]?.string ?? ""
    if response.status >= 500 { return WireBody.serverError(response) }
    let target = impersonated.targetPrincipal
    let hint: String
    switch response.status {
    case 403:
      hint =
        "Grant the source credential the Service Account Token Creator role (roles/iam.serviceAccountTokenCreator) on \(target)."
    case 404:
      hint =
        "Check the service account \(target) exists, or write the file again with gcloud auth application-default login --impersonate-service-account=EMAIL."
    default:
      hint =
        "Check \(impersonated.path), or write it again with gcloud auth application-default login --impersonate-service-account=EMAIL."
    }
    return AuthError(
      .configError,
      message:
        "Google refused to let \(impersonated.path) impersonate \(target) (HTTP \(response.status)\(status.map { ": \($0)" } ?? "")).",
      providerCode: status, status: response.status, detail: message.isEmpty ? nil : "iamcredentials: \(message)",
      hint: hint)
  }

  static func parse(_ response: HTTPResponse) -> (code: String?, description: String) {
    let json = try? JSON.parse(bytes: response.body)
    return (json?["error"]?.string, json?["error_description"]?.string ?? "")
  }

  static func make(_ response: HTTPResponse, code: String?, description: String, message: String, hint: String)
    -> AuthError
  {
    AuthError(
      .configError, message: message, providerCode: code, status: response.status,
      detail: description.isEmpty ? nil : "token endpoint: \(code ?? "?"): \(description)", hint: hint)
  }

  /// " Your clock is N s ahead of Google's." when the answer's `Date` header says so (5 s or more:
  /// the header has whole seconds and the answer takes a moment to arrive).
  static func skew(_ response: HTTPResponse, now: Date) -> String {
    guard let seconds = skewSeconds(response, now: now), abs(seconds) >= 5 else { return "" }
    return
      " Your clock is \(abs(seconds)) s \(seconds > 0 ? "ahead of" : "behind") Google's (its answer's Date header)."
  }

  /// This computer's time minus the server's, from the `Date` header (RFC 7231 IMF-fixdate).
  static func skewSeconds(_ response: HTTPResponse, now: Date) -> Int? {
    guard let text = response.header("Date") else { return nil }
    guard let server = httpDate(text) else { return nil }
    return Int((now.timeIntervalSince1970 - Double(server)).rounded())
  }

  /// Unix seconds of an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, the one form RFC 9110 says
  /// to send); nil for anything else.
  static func httpDate(_ text: String) -> Int? {
    let words = text.split(separator: " ")
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    guard words.count == 6, words[0].hasSuffix(","), words[5] == "GMT", words[1].count == 2, words[3].count == 4,
      let day = Int(words[1]), let monthIndex = months.firstIndex(of: String(words[2])), let year = Int(words[3]),
      (1...31).contains(day)
    else { return nil }
    let clock = words[4].split(separator: ":", omittingEmptySubsequences: false)
    guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }), let hour = Int(clock[0]), let minute = Int(clock[1]),
      let second = Int(clock[2]), hour < 24, minute < 60, second < 61
    else { return nil }
    return CivilTime.daysFromCivil(year, monthIndex + 1, day) * 86_400 + hour * 3600 + minute * 60 + second
  }
}
