import Testing

@testable import AuthScript

@Suite struct LexerTests {
  @Test func splitsLikeTheShellAndDropsCommentsAndBlankLines() {
    let file = SourceFile(name: "t.auth", text: "# comment\n\nsignup 'a b' \"c\\\"d\" {{x y}}  # trailing\r\nwhoami\n")
    let (lines, diagnostics) = Lexer.lex(file)
    #expect(diagnostics.isEmpty)
    #expect(lines.map(\.number) == [3, 4])
    #expect(lines[0].tokens.map(\.text) == ["signup", "a b", "c\"d", "{{x y}}"])
    #expect(lines[0].tokens.map(\.quoted) == [false, true, true, false])
    #expect(lines[0].tokens[1].raw == "'a b'")
    #expect(lines[0].tokens[1].range == SourceRange(line: 3, offsets: 7, 12))
  }

  @Test func unterminatedQuoteIsADiagnosticAtTheQuote() {
    let marked = MarkedText("whoami\nlogin 1️⃣'oops\nwhoami\n")
    let (lines, diagnostics) = Lexer.lex(SourceFile(name: "t.auth", text: marked.text))
    #expect(lines.count == 2)
    #expect(diagnostics.count == 1)
    #expect(diagnostics[0].title == "unterminated single quote")
    #expect(diagnostics[0].range?.start.line == marked["1️⃣"]?.line)
    #expect(diagnostics[0].range?.start.column == marked["1️⃣"]?.column)
  }

  @Test func linesSplitOnEveryNewlineStyleAndSkipABOM() {
    let file = SourceFile(name: "t.auth", text: "\u{FEFF}a\r\nb\rc\nd")
    #expect(file.lines == ["a", "b", "c", "d"])
    #expect(file.baseName == "t")
  }
}
