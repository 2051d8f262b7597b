import HTTPServerKit
import JSONKit

/// An error answer of the GoTrue API (`internal/api/apierrors`): status, stable code, message.
struct GoTrueError: Error, Sendable, Equatable {
  var status: Int
  var code: String
  var message: String
  /// `weak_password.reasons` (`length`, `characters`, `pwned`).
  var weakPasswordReasons: [String]?

  init(status: Int, code: String, message: String, weakPasswordReasons: [String]? = nil) {
    self.status = status
    self.code = code
    self.message = message
    self.weakPasswordReasons = weakPasswordReasons
  }

  static func badRequest(_ code: String, _ message: String) -> GoTrueError {
    GoTrueError(status: 400, code: code, message: message)
  }
  static func validation(_ message: String, status: Int = 400) -> GoTrueError {
    GoTrueError(status: status, code: "validation_failed", message: message)
  }
  static func forbidden(_ code: String, _ message: String) -> GoTrueError {
    GoTrueError(status: 403, code: code, message: message)
  }
  static func unprocessable(_ code: String, _ message: String) -> GoTrueError {
    GoTrueError(status: 422, code: code, message: message)
  }
  static func notFound(_ code: String, _ message: String) -> GoTrueError {
    GoTrueError(status: 404, code: code, message: message)
  }
  static func `internal`(_ message: String) -> GoTrueError {
    GoTrueError(status: 500, code: "unexpected_failure", message: message)
  }

  static let invalidCredentials = badRequest("invalid_credentials", "Invalid login credentials")
  static let noAuthorization = GoTrueError(
    status: 401, code: "no_authorization", message: "This endpoint requires a valid Bearer token")
  /// An argon2 `password_hash` is stored as GoTrue stores it, but this emulator cannot compute argon2.
  static let argon2Unverifiable = validation(
    "The authsh emulator cannot check argon2 password hashes here (libargon2 is not installed): install libargon2-1, or set a new password for this user to sign in"
  )
  static let duplicateEmail = unprocessable(
    "email_exists", "A user with this email address has already been registered")
  static let duplicatePhone = unprocessable("phone_exists", "Phone number already registered by another user")
  /// `PUT /user` with a number another account holds (`user.go`: `DuplicatePhoneMsg`).
  static let phoneTaken = unprocessable("phone_exists", "A user with this phone number has already been registered")

  /// The body shape depends on `X-Supabase-Api-Version` (`errors.go` `HandleResponseError`): a
  /// date on or after 2024-01-01 selects `{"code":"<error_code>","message":…}` and is echoed back;
  /// otherwise the legacy `{"code":<status>,"error_code":…,"msg":…}`.
  func response(for request: ServerRequest) -> ServerResponse {
    let dated = GoTrueError.isDatedAPIVersion(request.header("X-Supabase-Api-Version"))
    var headers: [(name: String, value: String)] = [("Content-Type", "application/json")]
    var body = JSONObject()
    if dated {
      headers.append(("X-Supabase-Api-Version", "2024-01-01"))
      body["code"] = .string(code)
      body["message"] = .string(message)
    } else {
      body["code"] = .int(status)
      body["error_code"] = .string(code)
      body["msg"] = .string(message)
      if status >= 500 { body["error_id"] = .string(EmulatorRandom.uuid()) }
    }
    if let weakPasswordReasons {
      body["weak_password"] = ["reasons": .array(weakPasswordReasons.map(JSON.string))]
    }
    // GoTrue sets x-sb-error-code on every error except the dated weak_password answer.
    if !(dated && weakPasswordReasons != nil) { headers.append(("x-sb-error-code", code)) }
    return ServerResponse(status: status, headers: headers, body: JSON.object(body).bytes)
  }

  /// True for a `YYYY-MM-DD` value on or after 2024-01-01.
  static func isDatedAPIVersion(_ value: String?) -> Bool {
    guard let value else { return false }
    let parts = value.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
      (1...12).contains(month), (1...31).contains(day)
    else { return false }
    return (year, month, day) >= (2024, 1, 1)
  }
}
