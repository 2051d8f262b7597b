import AuthCore
import ShellKit
import Testing

@testable import AuthScript

@Suite struct DiagnosticRendererTests {
  @Test func theSpecExampleExactly() {
    let text = (1...6).map { _ in "whoami" }.joined(separator: "\n") + "\nlogn {{email}} --password {{pw}}\n"
    let diagnostics = diagnose("let email = \"a@b.co\"\nsecret pw = \"secret-1\"\n" + text)
    let rendered = DiagnosticRenderer().render(diagnostics)
    #expect(
      rendered == """
        error: unknown command 'logn'
          --> t.auth:9:1
           |
         9 | logn {{email}} --password {{pw}}
           | ^^^^ did you mean 'login'?

        """)
  }

  @Test func wideLineNumbersWidenTheGutter() {
    let file = SourceFile(name: "x.auth", text: String(repeating: "\n", count: 11) + "assert user.email == 1")
    let diagnostic = Diagnostic(
      "assertion failed", file: file, range: SourceRange(line: 12, offsets: 7, 17), note: "actual:   string <a>",
      notes: ["expected: number <1>"])
    #expect(
      DiagnosticRenderer().render(diagnostic) == """
        error: assertion failed
          --> x.auth:12:8
           |
        12 | assert user.email == 1
           |        ^^^^^^^^^^ actual:   string <a>
           |                   expected: number <1>

        """)
  }

  @Test func secretsAreMaskedAndCaretsFollowTheMaskedText() {
    let redactor = Redactor()
    redactor.register("hunter2-secret")
    let file = SourceFile(name: "x.auth", text: "login a@b.co --password hunter2-secret --remembr")
    let diagnostic = Diagnostic(
      "unknown flag", file: file, range: SourceRange(line: 1, offsets: 39, 48), note: "did you mean '--remember'?")
    let rendered = DiagnosticRenderer(redactor: redactor).render(diagnostic)
    #expect(!rendered.contains("hunter2"))
    #expect(rendered.contains(" 1 | login a@b.co --password *** --remembr\n"))
    #expect(rendered.contains("   | " + String(repeating: " ", count: 28) + "^^^^^^^^^ did you mean"))
  }

  /// Control characters in the script or a server message show as escapes; carets still sit
  /// under the word they point at.
  @Test func controlCharactersAreEscapedAndCaretsFollow() {
    let file = SourceFile(name: "x.auth", text: "signup \u{1B}[2J\u{202E}x --remembr")
    let diagnostic = Diagnostic(
      "unknown flag", file: file, range: SourceRange(line: 1, offsets: 14, 23), note: "server said \u{1B}]0;t\u{07}")
    let rendered = DiagnosticRenderer().render(diagnostic)
    #expect(!rendered.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\u{07}" })
    #expect(rendered.contains(#" 1 | signup \e[2J\u{202E}x --remembr"# + "\n"))
    #expect(rendered.contains("   | " + String(repeating: " ", count: 22) + #"^^^^^^^^^ server said \e]0;t\u{7}"#))
  }

  @Test func colourOnlyWhenAsked() {
    let diagnostic = Diagnostic("x", file: SourceFile(name: "a", text: "y"), range: SourceRange(line: 1, offsets: 0, 1))
    #expect(!DiagnosticRenderer(style: .plain).render(diagnostic).contains("\u{1B}["))
    #expect(DiagnosticRenderer(style: Style(color: true)).render(diagnostic).contains("\u{1B}[31m"))
  }

  @Test func diagnosticsWithoutAPlace() {
    #expect(
      DiagnosticRenderer().render(Diagnostic("cannot read 'x.auth'", note: "no such file"))
        == "error: cannot read 'x.auth'\n  no such file\n")
  }
}
