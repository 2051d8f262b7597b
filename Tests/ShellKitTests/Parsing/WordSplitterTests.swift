import Testing

@testable import ShellKit

/// Lines split like a shell's, and the same whether a line goes through the bytes path (one byte
/// a character) or the characters path.
@Suite struct WordSplitterTests {
  static let lines = [
    "whoami",
    "  login   ada@example.com\t--password-env PW ",
    "signup 'a b'@example.com --name \"Ada \\\"the\\\" Lovelace\"",
    "user show x\\ y  # a comment",
    "let pw = {{ env.PW }} --x={{a b}}",
    "secret pw = \"\"",
    "assert user.email == \"c:\\\\dir\"",
    "a\rb",
    "# only a comment",
    "",
  ]

  @Test(arguments: lines)
  func bytesAndCharactersSplitAlike(_ line: String) throws {
    #expect(WordSplitter.isOneBytePerCharacter(line))
    #expect(try WordSplitter.split(Array(line.utf8)) == WordSplitter.split(Array(line)))
  }

  @Test func wordsOffsetsAndQuoting() throws {
    let words = try WordSplitter.split("signup 'a b'@x.io --name \"A \\\"B\\\"\" {{ v }} # gone")
    #expect(words.map(\.text) == ["signup", "a b@x.io", "--name", "A \"B\"", "{{ v }}"])
    #expect(words.map(\.quoted) == [false, true, false, true, false])
    #expect(words.map(\.start) == [0, 7, 18, 25, 35])
    #expect(words.map(\.end) == [6, 17, 24, 34, 42])
  }

  /// Offsets count characters: an accent, an emoji and a CRLF inside quotes are one each.
  @Test func aLineOfWiderCharactersCountsCharacters() throws {
    let line = "signup zoë@example.com --name \"👩‍💻 Ada\r\n\" x"
    #expect(!WordSplitter.isOneBytePerCharacter(line))
    let words = try WordSplitter.split(line)
    #expect(words.map(\.text) == ["signup", "zoë@example.com", "--name", "👩‍💻 Ada\r\n", "x"])
    #expect(words.map(\.start) == [0, 7, 23, 30, 39])
  }

  @Test(arguments: [
    ("say 'open", "unterminated single quote", 4),
    ("say \"open", "unterminated double quote", 4),
    ("say end\\", "trailing backslash", 7),
    ("say {{ open", "unterminated '{{'", 4),
  ])
  func unfinishedQuotesAreErrorsAtTheirColumn(_ line: String, _ message: String, _ column: Int) {
    for attempt in [{ try WordSplitter.split(Array(line.utf8)) }, { try WordSplitter.split(Array(line)) }] {
      #expect(throws: SplitError(message: message, column: column)) { try attempt() }
    }
  }
}
