import JSONKit
import Testing

@testable import AuthScript

@Suite struct ParserTests {
  func parse(_ text: String) -> (Script, [Diagnostic]) { Parser.parse(SourceFile(name: "t.auth", text: text)) }

  func kinds(_ text: String) -> [StatementKind] {
    let (script, diagnostics) = parse(text)
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.title))")
    return script.statements.map(\.kind)
  }

  @Test func everyStatementForm() {
    let text = """
      test "sign in"
      login {{email}} --password {{pw}}
      expect ok
      expect error invalid_credentials
      assert not user.email == "a@example.com"
      assert session.expires_in > 0
      assert user.name exists
      capture uid = user.id
      let n = 1.5
      secret pw = "{{env.PW}}"
      include lib/common.auth
      """
    let statements = kinds(text)
    #expect(statements.count == 11)
    guard case .test(let name) = statements[0] else {
      Issue.record("test")
      return
    }
    #expect(name.literalText == "sign in")
    guard case .command(let command) = statements[1] else {
      Issue.record("command")
      return
    }
    #expect(command.templates[1].soleVariable?.name == "email")
    guard case .expectError(let code) = statements[3] else {
      Issue.record("expect")
      return
    }
    #expect(code.text == "invalid_credentials")
    guard case .assert(let assertion) = statements[4] else {
      Issue.record("assert")
      return
    }
    #expect(assertion.negated && assertion.query.text == "user.email" && assertion.predicate == .equal)
    guard case .assert(let greater) = statements[5], case .literal(let zero) = greater.expected?.kind else {
      Issue.record("literal")
      return
    }
    #expect(zero == .int(0))
    guard case .assert(let exists) = statements[6] else {
      Issue.record("exists")
      return
    }
    #expect(exists.expected == nil && exists.predicate == .exists)
    guard case .assign(let n, let value, secret: false) = statements[8], case .literal(let number) = value.kind else {
      Issue.record("let")
      return
    }
    #expect(n.text == "n" && number == .double(1.5))
    guard case .assign(_, let secretValue, secret: true) = statements[9] else {
      Issue.record("secret")
      return
    }
    #expect(secretValue.variables.map(\.name) == ["env.PW"])
    guard case .include(let written, let resolved, _) = statements[10] else {
      Issue.record("include")
      return
    }
    #expect(written == "lib/common.auth" && resolved.hasSuffix("lib/common.auth"))
  }

  @Test func typedLiterals() {
    let cases: [(String, JSON?)] = [
      ("42", .int(42)), ("-7", .int(-7)), ("1.5", .double(1.5)), ("2e3", .double(2000)), ("true", .bool(true)),
      ("false", .bool(false)), ("null", .null), ("\"42\"", nil), ("abc", nil), ("1.", nil), ("--1", nil),
    ]
    for (text, expected) in cases {
      let (script, _) = parse("let x = \(text)")
      guard case .assign(_, let value, _) = script.statements.first?.kind else {
        Issue.record("\(text)")
        continue
      }
      if case .literal(let literal) = value.kind {
        #expect(literal == expected, "\(text)")
      } else {
        #expect(expected == nil, "\(text) should be a string")
      }
    }
  }

  @Test func errorsLandOnTheMarkedWordAndEveryLineIsReported() {
    let marked = MarkedText(
      """
      assert user.email 1️⃣startswith "a"
      expect 2️⃣okay
      let 3️⃣x=1
      assert user.email ==4️⃣
      capture 5️⃣9x = user.id
      assert 6️⃣"user.email" exists
      test "a" 7️⃣b
      login 8️⃣{{a b}}
      """)
    let (_, diagnostics) = parse(marked.text)
    let expected: [(String, String, String?)] = [
      ("1️⃣", "unknown predicate 'startswith'", "did you mean 'startsWith'?"),
      ("2️⃣", "unknown expectation 'okay'", "did you mean 'ok'?"),
      ("3️⃣", "missing spaces around '='", "write let NAME = VALUE"),
      ("4️⃣", "'==' needs a value", nil),
      ("5️⃣", "invalid name '9x'", nil),
      ("6️⃣", "a query is not quoted", nil),
      ("7️⃣", "unexpected 'b' after the test name", nil),
      ("8️⃣", "invalid variable '{{a b}}'", nil),
    ]
    #expect(diagnostics.count == expected.count)
    for ((marker, title, note), diagnostic) in zip(expected, diagnostics) {
      #expect(diagnostic.title == title)
      if let note { #expect(diagnostic.note == note) }
      guard let location = marked[marker], let range = diagnostic.range else {
        Issue.record("\(marker)")
        continue
      }
      if marker == "4️⃣" {
        #expect(range.start.line == location.line, "\(marker)")  // points at the predicate before it
      } else {
        #expect(range.start.line == location.line && range.start.column == location.column, "\(marker) \(range)")
      }
    }
  }

  @Test func templateHolesKeepTheirColumns() {
    let marked = MarkedText("signup x1️⃣{{ email }}y \"q2️⃣{{pw}}\"")
    let (script, _) = parse(marked.text)
    guard case .command(let command) = script.statements.first?.kind else {
      Issue.record("command")
      return
    }
    let holes = command.templates.flatMap(\.variables)
    #expect(holes.map(\.name) == ["email", "pw"])
    #expect(holes[0].range.start.column == marked["1️⃣"]?.column)
    #expect(holes[1].range.start.column == marked["2️⃣"]?.column)
    #expect(holes[0].range.end.column - holes[0].range.start.column == "{{ email }}".count)
  }

  @Test func quotedKeywordsAreCommandsNotStatements() {
    let statements = kinds("'test' x\n\"expect\" ok")
    #expect(statements.allSatisfy { if case .command = $0 { return true } else { return false } })
  }
}
