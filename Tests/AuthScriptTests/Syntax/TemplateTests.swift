import AuthScript
import Testing

struct TemplateTests {
  func token(_ text: String) -> Token {
    Token(text: text, raw: text, quoted: false, range: SourceRange(line: 1, offsets: 0, text.count))
  }

  /// A word with no `{{` is its own text (taken without walking its characters), the same
  /// template the walk makes; a lone brace is text too.
  @Test(arguments: ["whoami", "ada@example.com", "é-ü 🎉", "a{b", "}}", "{", ""])
  func aWordWithoutHolesIsItsText(_ word: String) throws {
    let template = try Template.parse(token(word)).get()
    #expect(template.parts == (word.isEmpty ? [] : [.text(word)]))
    #expect(template.variables.isEmpty)
  }

  @Test func holesAreFoundBesideText() throws {
    let template = try Template.parse(token("x-{{user.id}}-{{ env.HOME }}")).get()
    #expect(template.parts.count == 4)
    #expect(template.variables.map(\.name) == ["user.id", "env.HOME"])
  }
}
