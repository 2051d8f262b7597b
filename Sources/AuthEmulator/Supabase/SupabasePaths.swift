/// The path parameters a route declares (`SupabaseRoute`'s `path:`), decoded once from the matched
/// pattern before its handler runs: the handler gets the type, never the names.
protocol SupabasePath: Sendable {
  /// The pattern's `{name}`s this type reads, in order (the route table test holds each route to them).
  static var parameterNames: [String] { get }

  init(_ parameters: [String: String])
}

/// A route without path parameters.
struct NoPath: SupabasePath {
  static let parameterNames: [String] = []

  init(_ parameters: [String: String]) {}
}

/// A `{userId}` or `{factorId}` segment as the path spells it. GoTrue parses it as a UUID only
/// after the route's own checks (`loadUser` and `loadFactor` run after authentication, and a
/// factor's after its user's lookup), so `uuid()` is called where GoTrue makes that check.
struct GoTrueIDSegment: Sendable {
  /// The segment, raw.
  let raw: String
  /// The name GoTrue's error gives it: `user_id`, `factor_id`.
  let name: String

  /// The id, lower-cased; 404 `validation_failed` ("user_id must be an UUID") when it is not a UUID.
  func uuid() throws -> String {
    let id = raw.lowercased()
    guard GoTrueRules.isUUID(id) else { throw GoTrueError.notFound("validation_failed", "\(name) must be an UUID") }
    return id
  }
}

/// `/admin/users/{userId}…`.
struct UserIDPath: SupabasePath {
  static let parameterNames = ["userId"]

  let userID: GoTrueIDSegment

  init(_ parameters: [String: String]) {
    userID = GoTrueIDSegment(raw: parameters["userId", default: ""], name: "user_id")
  }
}

/// `/factors/{factorId}…`.
struct FactorIDPath: SupabasePath {
  static let parameterNames = ["factorId"]

  let factorID: GoTrueIDSegment

  init(_ parameters: [String: String]) {
    factorID = GoTrueIDSegment(raw: parameters["factorId", default: ""], name: "factor_id")
  }
}

/// `/admin/users/{userId}/factors/{factorId}`.
struct UserFactorPath: SupabasePath {
  static let parameterNames = ["userId", "factorId"]

  let userID: GoTrueIDSegment
  let factorID: GoTrueIDSegment

  init(_ parameters: [String: String]) {
    userID = UserIDPath(parameters).userID
    factorID = FactorIDPath(parameters).factorID
  }
}
