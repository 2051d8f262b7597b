import AuthCore
import Essentials
import JSONKit
import ShellKit

/// Lines of words → statements. Each line is one statement, so the parser recovers at every line
/// end: one run reports every problem of the file (jlox `synchronize()`).
package enum Parser {
  /// The statement words of the language; anything else is a table command.
  package static let keywords = ["test", "cleanup", "expect", "assert", "capture", "let", "secret", "include"]

  package static func parse(_ file: SourceFile) -> (script: Script, diagnostics: [Diagnostic]) {
    let (lines, lexDiagnostics) = Lexer.lex(file)
    var diagnostics = lexDiagnostics
    var statements: [Statement] = []
    for line in lines {
      switch parseLine(line, in: file) {
      case .success(let statement): statements.append(statement)
      case .failure(let problem): diagnostics.append(problem.diagnostic(in: file))
      }
    }
    diagnostics.sort {
      ($0.range?.start ?? SourceLocation(line: 0, column: 0)) < ($1.range?.start ?? SourceLocation(line: 0, column: 0))
    }
    return (Script(file: file, statements: statements), diagnostics)
  }

  static func parseLine(_ line: TokenLine, in file: SourceFile) -> Result<Statement, Diagnostic.Partial> {
    guard let first = line.tokens.first else {
      return .failure(.init("empty statement", range: line.range))
    }
    var reader = TokenReader(line)
    let kind: Result<StatementKind, Diagnostic.Partial>
    switch first.quoted ? "" : first.text {
    case "test": kind = parseTest(&reader)
    case "cleanup": kind = parseCleanup(&reader)
    case "expect": kind = parseExpect(&reader)
    case "assert": kind = parseAssert(&reader)
    case "capture": kind = parseCapture(&reader)
    case "let": kind = parseAssign(&reader, secret: false)
    case "secret": kind = parseAssign(&reader, secret: true)
    // `source FILE` (the shell's word, in piped input and scripts) is `include FILE`.
    case "include", "source": kind = parseInclude(&reader, file: file)
    default: kind = parseCommand(line)
    }
    return kind.map { Statement($0, range: line.range, keywordRange: first.range, file: file) }
  }

  static func parseCommand(_ line: TokenLine) -> Result<StatementKind, Diagnostic.Partial> {
    var templates: [Template] = []
    for token in line.tokens {
      switch Template.parse(token) {
      case .success(let template): templates.append(template)
      case .failure(let problem): return .failure(problem)
      }
    }
    return .success(.command(CommandStatement(tokens: line.tokens, templates: templates)))
  }

  static func parseTest(_ reader: inout TokenReader) -> Result<StatementKind, Diagnostic.Partial> {
    let keyword = reader.keyword
    guard let name = reader.next() else {
      return .failure(.init("missing test name", range: keyword.range, note: "write test \"NAME\""))
    }
    if let extra = reader.peek() {
      return .failure(
        .init(
          "unexpected '\(extra.text)' after the test name", range: extra.range,
          note: "quote a name with spaces: test \"\(([name] + reader.rest).map(\.text).joined(separator: " "))\""))
    }
    return Template.parse(name).map { .test($0) }
  }

  static func parseCleanup(_ reader: inout TokenReader) -> Result<StatementKind, Diagnostic.Partial> {
    let keyword = reader.keyword
    if let extra = reader.peek() {
      return .failure(
        .init(
          "unexpected '\(extra.text)' after 'cleanup'", range: extra.range,
          note: "'cleanup' stands alone; its commands follow on the next lines"))
    }
    return .success(.cleanup(keyword.range))
  }

  static func parseExpect(_ reader: inout TokenReader) -> Result<StatementKind, Diagnostic.Partial> {
    let keyword = reader.keyword
    guard let word = reader.next() else {
      return .failure(
        .init("missing expectation", range: keyword.range, note: "write 'expect ok' or 'expect error CODE'"))
    }
    if word.isKeyword("ok") {
      if let extra = reader.peek() {
        return .failure(.init("unexpected '\(extra.text)' after 'expect ok'", range: extra.range))
      }
      return .success(.expectOK(word.range))
    }
    guard word.isKeyword("error") else {
      let guess = Suggest.closest(to: word.text, among: ["ok", "error"])
      return .failure(
        .init(
          "unknown expectation '\(word.text)'", range: word.range,
          note: guess.map { "did you mean '\($0)'?" } ?? "write 'expect ok' or 'expect error CODE'"))
    }
    guard let code = reader.next() else {
      return .failure(
        .init(
          "missing error code", range: word.range,
          note: "write 'expect error CODE', e.g. expect error invalid_credentials"))
    }
    if let extra = reader.peek() {
      return .failure(.init("unexpected '\(extra.text)' after the error code", range: extra.range))
    }
    guard !code.quoted, code.text.allSatisfy(Template.isNameCharacter), !code.text.isEmpty else {
      return .failure(
        .init("invalid error code '\(code.text)'", range: code.range, note: "codes are words like invalid_credentials"))
    }
    return .success(.expectError(Name(code.text, range: code.range)))
  }

  static func parseAssert(_ reader: inout TokenReader) -> Result<StatementKind, Diagnostic.Partial> {
    let keyword = reader.keyword
    var negated = false
    if reader.peek()?.isKeyword("not") == true {
      negated = true
      _ = reader.next()
    }
    guard let queryToken = reader.next() else {
      return .failure(
        .init(
          "missing query", range: keyword.range,
          note: "write assert QUERY PREDICATE [VALUE], e.g. assert user.email == \"a@example.com\""))
    }
    let query: Query
    switch parseQuery(queryToken) {
    case .success(let parsed): query = parsed
    case .failure(let problem): return .failure(problem)
    }
    guard let predicateToken = reader.next() else {
      return .failure(
        .init("missing predicate after '\(query.text)'", range: queryToken.range, note: "one of \(predicateList)"))
    }
    if predicateToken.isKeyword("not") {
      return .failure(
        .init("'not' goes before the query", range: predicateToken.range, note: "write assert not \(query.text) …"))
    }
    guard !predicateToken.quoted, let predicate = Predicate(rawValue: predicateToken.text) else {
      let guess =
        Suggest.closest(to: predicateToken.text, among: Predicate.allCases.map(\.rawValue))
        ?? (predicateToken.text == "=" ? "==" : nil)
      return .failure(
        .init(
          "unknown predicate '\(predicateToken.text)'", range: predicateToken.range,
          note: guess.map { "did you mean '\($0)'?" } ?? "one of \(predicateList)"))
    }
    var expected: ValueExpr?
    if predicate.takesValue {
      guard let valueToken = reader.next() else {
        return .failure(
          .init(
            "'\(predicate.rawValue)' needs a value", range: predicateToken.range,
            note: "e.g. assert \(query.text) \(predicate.rawValue) \"text\""))
      }
      switch parseValue(valueToken) {
      case .success(let value): expected = value
      case .failure(let problem): return .failure(problem)
      }
    }
    if let extra = reader.peek() {
      let note = predicate.takesValue ? "quote a value with spaces" : "'\(predicate.rawValue)' takes no value"
      return .failure(.init("unexpected '\(extra.text)'", range: extra.range, note: note))
    }
    return .success(
      .assert(
        Assertion(
          negated: negated, query: query, predicate: predicate, predicateRange: predicateToken.range, expected: expected
        )))
  }

  static var predicateList: String { Predicate.allCases.map(\.rawValue).joined(separator: " ") }

  static func parseCapture(_ reader: inout TokenReader) -> Result<StatementKind, Diagnostic.Partial> {
    parseBinding(&reader, usage: "capture NAME = QUERY").flatMap { name, token in
      parseQuery(token).map { .capture(name, $0) }
    }
  }

  static func parseAssign(_ reader: inout TokenReader, secret: Bool) -> Result<StatementKind, Diagnostic.Partial> {
    parseBinding(&reader, usage: (secret ? "secret" : "let") + " NAME = VALUE").flatMap { name, token in
      parseValue(token).map { .assign(name, $0, secret: secret) }
    }
  }

  /// `KEYWORD NAME = WORD` → the name and the word after `=`.
  static func parseBinding(_ reader: inout TokenReader, usage: String) -> Result<(Name, Token), Diagnostic.Partial> {
    let keyword = reader.keyword
    guard let nameToken = reader.next() else {
      return .failure(.init("missing name", range: keyword.range, note: "write \(usage)"))
    }
    if !nameToken.quoted, nameToken.text.contains("="), !nameToken.text.hasPrefix("=") {
      return .failure(.init("missing spaces around '='", range: nameToken.range, note: "write \(usage)"))
    }
    guard isValidName(nameToken) else {
      return .failure(
        .init(
          "invalid name '\(nameToken.text)'", range: nameToken.range,
          note: "names are letters, digits, '_' and '-', starting with a letter or '_'"))
    }
    guard let equals = reader.next(), equals.isKeyword("=") else {
      return .failure(
        .init(
          "expected '=' after '\(nameToken.text)'", range: reader.lastRange ?? nameToken.range, note: "write \(usage)"))
    }
    guard let value = reader.next() else {
      return .failure(.init("missing value after '='", range: equals.range, note: "write \(usage)"))
    }
    if let extra = reader.peek() {
      return .failure(.init("unexpected '\(extra.text)'", range: extra.range, note: "quote a value with spaces"))
    }
    return .success((Name(nameToken.text, range: nameToken.range), value))
  }

  static func parseInclude(_ reader: inout TokenReader, file: SourceFile) -> Result<StatementKind, Diagnostic.Partial> {
    let keyword = reader.keyword
    guard let path = reader.next() else {
      return .failure(.init("missing file after 'include'", range: keyword.range, note: "write include FILE.auth"))
    }
    if let extra = reader.peek() {
      return .failure(.init("unexpected '\(extra.text)'", range: extra.range, note: "include takes one file"))
    }
    guard !path.text.isEmpty, !path.text.contains("{{") else {
      return .failure(
        .init("include needs a plain file path", range: path.range, note: "variables are not allowed in include paths"))
    }
    guard path.text.hasSuffix(".auth") else {
      // Not read at all: a parse error on its first line would show that line (`include /etc/shadow`).
      return .failure(
        .init(
          "include needs an .auth script", range: path.range, note: "other files are not read; write include FILE.auth")
      )
    }
    let resolved = PathText.join(file.directory, path.text)
    return .success(.include(written: path.text, resolved: ScriptLoader.normalize(resolved), range: path.range))
  }
}
