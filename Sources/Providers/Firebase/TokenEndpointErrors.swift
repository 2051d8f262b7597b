import AuthCore
import JSONKit

/// Google's token endpoint errors (`{"error":"invalid_grant","error_description":"…"}`) as
/// `config_error`s that name the service account and say what to do. The status is kept, so the
/// exit status is 1 (the backend answered), not the one for a problem found before sending.
enum TokenEndpointErrors {
  static func map(_ response: HTTPResponse, account: ServiceAccount) -> AuthError {
    let json = try? JSON.parse(bytes: response.body)
    let code = json?["error"]?.string
    let description = json?["error_description"]?.string ?? ""
    let lowered = description.lowercased()
    let who = "the service account \(account.clientEmail)"
    let newKey = "Create a new key (Firebase console › Project settings › Service accounts › Generate new private key) and point GOOGLE_APPLICATION_CREDENTIALS or credentials_file at it."
    func error(_ message: String, _ hint: String) -> AuthError {
      AuthError(
        .configError, message: message, providerCode: code, status: response.status,
        detail: description.isEmpty ? nil : "token endpoint: \(code ?? "?"): \(description)", hint: hint)
    }
    switch code {
    case "invalid_grant":
      if lowered.contains("short-lived") || lowered.contains("timeframe") || lowered.contains("iat") {
        return error(
          "Google refused the sign-in of \(who): the assertion's time is not accepted (clock skew).",
          "Check this computer's clock (e.g. timedatectl; enable NTP) and retry.")
      }
      if lowered.contains("disabled") {
        return error("Google refused the sign-in of \(who): the account or its key is disabled.", "Enable it in the Google Cloud console › IAM › Service accounts, or \(newKey)")
      }
      if lowered.contains("not found") || lowered.contains("deleted") {
        return error("Google refused the sign-in of \(who): the account does not exist (deleted?).", newKey)
      }
      return error(
        "Google refused the sign-in of \(who): the key \(account.privateKeyId) in \(account.path) is revoked, deleted or not this account's.",
        newKey)
    case "invalid_client":
      return error("Google does not know \(who) (invalid_client): the account or key was deleted, or the file is damaged.", newKey)
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
}
