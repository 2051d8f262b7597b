import AuthCore
import Testing

@testable import ShellKit

@Suite struct ResultTextTests {
  func invocation(_ line: String) throws -> Invocation {
    let words = line.split(separator: " ").enumerated().map { Word(text: String($1), start: $0, end: $0 + 1) }
    return try InvocationParser.parse(words, surface: .oneShot).get()
  }

  /// A cancelled command that may have changed the server says so after "Cancelled."; one that
  /// only reads (or only signs in) says nothing more.
  @Test func aCancelledChangeMayHaveBeenApplied() throws {
    for line in [
      "signup ada@example.com --name Ada", "reset ada@example.com", "user delete ada@example.com",
      "user confirm ada@example.com",
    ] {
      let note = ResultText.cancelledNote(try invocation(line))
      #expect(note?.hasPrefix("The request may already have reached the server and been applied") == true, "\(line)")
    }
    #expect(
      ResultText.cancelledNote(try invocation("signup ada@example.com --name Ada"))?.hasSuffix(
        "before trying 'signup' again.") == true)
    for line in ["whoami", "login ada@example.com", "user show ada@example.com", "diagnose ada@example.com", "status"] {
      #expect(ResultText.cancelledNote(try invocation(line)) == nil, "\(line)")
    }
  }
}
