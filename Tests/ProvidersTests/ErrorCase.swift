import AuthCore
import Testing

/// One row of the error catalogue as a backend answer: what the server says, what the user sees.
struct ErrorCase: Sendable, CustomTestStringConvertible {
  var name: String
  var provider: ProviderKind
  /// The command line run through the runner.
  var line: String
  /// The route the fixture answers on (method, path).
  var method: String
  var path: String
  var status: Int
  /// Fixture file under Fixtures/, or nil for an empty body.
  var fixture: String?
  var headers: [(String, String)] = []
  var contentType = "application/json"
  var signedIn = false
  var expiresIn = 3600
  var delaySeconds: Double = 0
  var drop = false
  // Expectations
  var code: ErrorCode
  var message: String
  var exit: Int32
  var providerCode: String? = nil
  var retryAfter: Int? = nil
  /// Text the hint must contain (what to enable or do instead).
  var hint: String? = nil

  func hinting(_ text: String) -> ErrorCase {
    var copy = self
    copy.hint = text
    return copy
  }

  var testDescription: String { "\(provider.rawValue) \(name)" }
}
