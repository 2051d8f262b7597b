import AuthCore
import JSONKit
import ShellKit
import Testing

@testable import AuthScript

/// The shell's `{{…}}`: the script engine on one typed line.
@Suite struct LineInterpolationTests {
  func expand(_ line: String, previous: JSON? = nil, environment: [String: String] = [:]) throws -> Result<
    [Word], InterpolationError
  > {
    LineInterpolation.expand(
      try WordSplitter.split(line), line: line, previous: previous, environment: environment, now: { 1_700_000_000 })
  }

  @Test func fillsFromThePreviousResultAndTheEnvironment() throws {
    let previous: JSON = ["command": "inbox", "inbox": ["link": "http://127.0.0.1:1/verify?token=abc&type=recovery"]]
    let words = try expand(
      "reset confirm {{inbox.link}} --email {{ env.WHO }}", previous: previous, environment: ["WHO": "ada@example.com"]
    ).get()
    #expect(
      words.map(\.text) == [
        "reset", "confirm", "http://127.0.0.1:1/verify?token=abc&type=recovery", "--email", "ada@example.com",
      ])
    #expect(words[2].start == 14 && words[2].end == 28, "offsets stay those of the typed line")
    let stamped = try expand("echo t={{timestamp}}").get()
    #expect(stamped.last?.text == "t=1700000000")
  }

  @Test func unknownNamesAreErrorsWithTheHoleMarked() throws {
    guard case .failure(let unknown) = try expand("login {{nosuch}}") else {
      Issue.record("expected a failure")
      return
    }
    #expect(unknown.message == "undefined variable 'nosuch'")
    #expect(unknown.start == 6 && unknown.end == 16)
    #expect(unknown.note?.contains("{{env.NAME}}") == true)
    guard case .failure(let noPrevious) = try expand("reset confirm {{inbox.link}}") else {
      Issue.record("expected a failure")
      return
    }
    #expect(noPrevious.message == "no previous result for '{{inbox.link}}'")
    guard case .failure(let unset) = try expand("echo {{env.NOPE}}") else {
      Issue.record("expected a failure")
      return
    }
    #expect(unset.message == "environment variable 'NOPE' is not set")
    guard case .failure(let missing) = try expand("echo {{user.id}}", previous: ["command": "status"]) else {
      Issue.record("expected a failure")
      return
    }
    #expect(missing.message == "'user.id' has no value")
    guard case .failure(let malformed) = try expand("echo {{a b}}") else {
      Issue.record("expected a failure")
      return
    }
    #expect(malformed.message.contains("invalid variable"))
  }

  @Test func wordsWithoutHolesAreUntouched() throws {
    let words = try expand("login 'ada@example.com' --remember").get()
    #expect(words == (try WordSplitter.split("login 'ada@example.com' --remember")))
  }
}
