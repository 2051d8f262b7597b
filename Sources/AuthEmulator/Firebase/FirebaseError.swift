import JSONKit

/// An error answered in the Google API envelope, as the official Auth emulator builds it
/// (`errors.ts`): `{"error":{"code","message","errors":[…],"status"?}}`.
struct FirebaseError: Error, Equatable {
  var httpStatus: Int
  var message: String
  /// The Google status name (`INVALID_ARGUMENT`, …); nil for business errors (`BadRequestError`).
  var status: String?
  var items: [JSON]

  /// A business error: HTTP 400, no `status`, one item with reason `invalid`.
  static func bad(_ message: String) -> FirebaseError {
    FirebaseError(httpStatus: 400, message: message, status: nil, items: [item(message, reason: "invalid")])
  }

  /// Secure Token errors as production sends them: `status` INVALID_ARGUMENT, no `errors` list.
  static func secureToken(_ message: String) -> FirebaseError {
    FirebaseError(httpStatus: 400, message: message, status: "INVALID_ARGUMENT", items: [])
  }

  /// `Invalid JSON payload received. …` (schema or parse failures).
  static func invalidArgument(_ detail: String, reason: String = "invalid") -> FirebaseError {
    let message = "Invalid JSON payload received. " + detail
    return FirebaseError(
      httpStatus: 400, message: message, status: "INVALID_ARGUMENT",
      items: [item(message, reason: reason)])
  }

  static let missingAPIKey = FirebaseError(
    httpStatus: 403, message: "The request is missing a valid API key.", status: "PERMISSION_DENIED",
    items: [item("The request is missing a valid API key.", reason: "forbidden")])

  static let invalidCredentials: FirebaseError = {
    let message =
      "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or "
      + "other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
    let item: JSON = [
      "message": "Invalid Credentials", "domain": "global", "reason": "authError",
      "location": "Authorization", "locationType": "header",
    ]
    return FirebaseError(httpStatus: 401, message: message, status: "UNAUTHENTICATED", items: [item])
  }()

  static let missingCredentials: FirebaseError = {
    let message =
      "Request is missing required authentication credential. Expected OAuth 2 access token, login "
      + "cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
    let item: JSON = [
      "message": "Login Required.", "domain": "global", "reason": "required",
      "location": "Authorization", "locationType": "header",
    ]
    return FirebaseError(httpStatus: 401, message: message, status: "UNAUTHENTICATED", items: [item])
  }()

  static let notFound = FirebaseError(
    httpStatus: 404, message: "Not Found", status: "NOT_FOUND", items: [["message": "Not Found", "reason": "notFound"]])

  static func notImplemented(_ message: String) -> FirebaseError {
    FirebaseError(
      httpStatus: 501, message: message, status: "NOT_IMPLEMENTED",
      items: [["message": .string(message), "reason": "unimplemented"]])
  }

  static func internalError(_ message: String) -> FirebaseError {
    FirebaseError(
      httpStatus: 500, message: message, status: "INTERNAL",
      items: [["message": .string(message), "reason": "internal"]])
  }

  static let bodyTooLarge: FirebaseError = {
    let message = "Request payload size exceeds the limit: 1048576 bytes."
    return FirebaseError(
      httpStatus: 413, message: message, status: "INVALID_ARGUMENT",
      items: [item(message, reason: "badRequest")])
  }()

  private static func item(_ message: String, reason: String) -> JSON {
    ["message": .string(message), "domain": "global", "reason": .string(reason)]
  }

  var json: JSON {
    var error = JSONObject()
    error["code"] = .int(httpStatus)
    error["message"] = .string(message)
    if !items.isEmpty { error["errors"] = .array(items) }
    if let status { error["status"] = .string(status) }
    return ["error": .object(error)]
  }
}

/// Throws the business error `message` unless `condition` holds (the emulator's `assert`).
func require(_ condition: Bool, _ message: String) throws {
  if !condition { throw FirebaseError.bad(message) }
}
