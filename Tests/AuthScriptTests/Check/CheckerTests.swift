import ShellKit
import Testing

@testable import AuthScript

@Suite struct CheckerTests {
  func expectDiagnostics(
    _ marked: MarkedText, _ expected: [(String, String, String?)], files: [String: String] = [:],
    environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let diagnostics = diagnose(marked.text, files: files, environment: environment)
    #expect(diagnostics.map(\.title) == expected.map(\.1), sourceLocation: sourceLocation)
    for ((marker, _, note), diagnostic) in zip(expected, diagnostics) {
      if let note { #expect(diagnostic.note == note, sourceLocation: sourceLocation) }
      guard let location = marked[marker], let range = diagnostic.range else {
        Issue.record("no range for \(marker)")
        continue
      }
      #expect(
        range.start.line == location.line && range.start.column == location.column, "\(marker): \(range)",
        sourceLocation: sourceLocation)
    }
  }

  typealias SourceLocation = Testing.SourceLocation

  @Test func commandsAgainstTheTable() {
    let marked = MarkedText(
      """
      let email = "a@example.com"
      1️⃣logn {{email}} --password x
      login {{email}} 2️⃣--pasword x
      3️⃣reset confirm
      provider 4️⃣supabse
      provider 5️⃣{{p}}
      6️⃣run x.auth
      signup a@b.co 7️⃣extra --password pw123456
      """)
    // `{{p}}` is undefined, but its choice is not judged before the run.
    expectDiagnostics(
      marked,
      [
        ("1️⃣", "unknown command 'logn'", "did you mean 'login'?"),
        ("2️⃣", "unknown flag '--pasword' for 'login'", "did you mean '--password'?"),
        (
          "3️⃣", "'reset confirm' needs CODE-OR-LINK",
          "usage: reset confirm CODE-OR-LINK [--email EMAIL] [--password VALUE] [--password-env VAR]"
        ),
        ("4️⃣", "PROVIDER must be one of supabase, firebase, not 'supabse'", "did you mean 'supabase'?"),
        ("5️⃣", "undefined variable 'p'", nil),
        ("6️⃣", "'run' works only from your system shell (bash, zsh), as `authsh run …`", nil),
        ("7️⃣", "unexpected argument 'extra' for 'signup'", nil),
      ])
  }

  @Test func variablesQueriesCodesAndOrder() {
    let marked = MarkedText(
      """
      1️⃣expect ok
      whoami
      assert 2️⃣user.emial == "x"
      assert 3️⃣sessions.expires_in > 0
      expect error 4️⃣invalid_credential
      echo 5️⃣{{emial}}
      let email = "a@example.com"
      echo {{email}} {{user.id}} {{uuid}} {{timestamp}} {{random}}
      echo 6️⃣{{env.NOT_SET_ANYWHERE}}
      let 7️⃣user = "x"
      assert user.email matches 8️⃣"(["
      capture uid = user.id
      echo {{uid}} {{env.HOME}}
      """)
    expectDiagnostics(
      marked,
      [
        ("1️⃣", "'expect' has no command to check", nil),
        ("2️⃣", "unknown field 'emial' in 'user'", "did you mean 'email'?"),
        ("3️⃣", "unknown query 'sessions'", "did you mean 'session'?"),
        ("4️⃣", "unknown error code 'invalid_credential'", "did you mean 'invalid_credentials'?"),
        ("5️⃣", "undefined variable 'emial'", nil),
        ("6️⃣", "environment variable 'NOT_SET_ANYWHERE' is not set", nil),
        ("7️⃣", "'user' is a reserved name", nil),
        ("8️⃣", "invalid regular expression", nil),
      ], environment: ["HOME": "/root"])
  }

  @Test func includesResolveRelativelyAndCyclesAreErrors() {
    let marked = MarkedText("include 1️⃣a.auth\nwhoami\n")
    let files = ["a.auth": "include b.auth\n", "b.auth": "include a.auth\nlogn x\n"]
    let diagnostics = diagnose(marked.text, files: files)
    #expect(diagnostics.map(\.title) == ["include cycle", "unknown command 'logn'"])
    #expect(diagnostics[0].note == "a.auth → b.auth → a.auth")
    #expect(diagnostics[0].fileName == "b.auth")
    #expect(diagnostics[1].fileName == "b.auth")
    let missing = diagnose("include nope.auth", files: [:])
    #expect(missing.map(\.title) == ["cannot read 'nope.auth'"])
    #expect(diagnose("include a.auth\ninclude a.auth\n", files: ["a.auth": "whoami\n"]).isEmpty)
  }

  @Test func variablesDefinedByIncludedFilesAndVarsAreKnown() {
    #expect(diagnose("include lib.auth\necho {{email}}", files: ["lib.auth": "let email = \"x@y.io\""]).isEmpty)
    let program = ScriptLoader(readFile: { _ in "" }).load(SourceFile(name: "t.auth", text: "echo {{who}}")).program
    #expect(Checker(predefined: ["who"]).check(program).isEmpty)
  }

  /// The run starts from what the check parsed: each command line, by its statement index, with
  /// the words the interpreter will build for it when the line has no holes.
  @Test func theCheckHandsItsParsesToTheRun() {
    let text = "whoami\nlet email = \"a@b.co\"\nlogin {{email}} --password x\nlogn x\n"
    let program = ScriptLoader(readFile: { _ in "" }).load(SourceFile(name: "t.auth", text: text)).program
    let checked = Checker().checkAndParse(program)
    #expect(Set(checked.parsed.keys) == [0, 2, 3])
    #expect((try? checked.parsed[0]?.parsed.get())?.spec.id == .whoami)
    #expect(checked.parsed[0]?.words.map(\.text) == ["whoami"])
    #expect((try? checked.parsed[2]?.parsed.get())?.spec.id == .login)
    #expect(checked.parsed[3].map { if case .failure = $0.parsed { true } else { false } } == true)
    #expect(checked.diagnostics.map(\.title) == ["unknown command 'logn'"])
  }
}
