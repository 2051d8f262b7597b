import AuthCore
import Testing

/// An error shown through string interpolation (a wrapper's reason, a note) reads as its message,
/// whatever its code and fields: never the structure's dump (`AuthError(code: …, message: …)`),
/// which a refused `user import --report` once printed inside its own message.
@Suite struct AuthErrorTextTests {
  @Test(arguments: ErrorCode.Known.allCases)
  func anInterpolatedErrorIsItsMessage(_ known: ErrorCode.Known) {
    var error = AuthError(
      ErrorCode(known.rawValue), message: "The report r.jsonl is a file others may write to.", hint: "Use another.")
    error.neverSent = true
    #expect("\(error)" == error.message)
    #expect(String(describing: error) == error.message)
    #expect(!"why: \(error)".contains("AuthError("))
  }
}
