import AuthCore
import ShellKit
import Testing

@testable import AuthScript

@Suite struct DiagnosticRendererTests {
  @Test func theSpecExampleExactly() {
    let text = (1...6).map { _ in "whoami" }.joined(separator: "\n") + "\nlogn {{email}} --password {{pw}}\n"
    let diagnostics = diagnose("let email = \"a@b.co\"\nsecret pw = \"secret-1\"\n" + text)
    let rendered = DiagnosticRenderer().render(diagnostics)
    #expect(rendered == """
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
    #expect(DiagnosticRenderer().render(diagnostic) == """
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
    let diagnostic = Diagnostic("unknown flag", file: file, range: SourceRange(line: 1, offsets: 39, 48), note: "did you mean '--remember'?")
    let rendered = DiagnosticRenderer(redactor: redactor).render(diagnostic)
    #expect(!rendered.contains("hunter2"))
    #expect(rendered.contains(" 1 | login a@b.co --password *** --remembr\n"))
    #expect(rendered.contains("   | " + String(repeating: " ", count: 28) + "^^^^^^^^^ did you mean"))
  }

  @Test func colourOnlyWhenAsked() {
    let diagnostic = Diagnostic("x", file: SourceFile(name: "a", text: "y"), range: SourceRange(line: 1, offsets: 0, 1))
    #expect(!DiagnosticRenderer(style: .plain).render(diagnostic).contains("\u{1B}["))
    #expect(DiagnosticRenderer(style: Style(color: true)).render(diagnostic).contains("\u{1B}[31m"))
  }

  @Test func diagnosticsWithoutAPlace() {
    #expect(DiagnosticRenderer().render(Diagnostic("cannot read 'x.auth'", note: "no such file")) == "error: cannot read 'x.auth'\n  no such file\n")
  }
}
