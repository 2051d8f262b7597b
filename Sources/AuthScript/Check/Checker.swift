import AuthCore
import Essentials
import ShellKit

/// Static checks before anything is sent (jlox's Resolver role): commands and flags against the
/// command table (with did-you-mean), arity, error codes, queries against the result model,
/// variables that are used before any definition, regular expressions.
package struct Checker: Sendable {
  /// Names given with `--var` or `AUTHSH_VAR_name`.
  package var predefined: Set<String>
  /// For `{{env.NAME}}`: a missing variable is an error before the run, not a surprise during it.
  package var environment: [String: String]

  package init(predefined: Set<String> = [], environment: [String: String] = [:]) {
    self.predefined = predefined
    self.environment = environment
  }

  package static let builtins = TemplateBuiltin.names

  package func check(_ program: Program) -> [Diagnostic] { checkAndParse(program).diagnostics }

  /// The diagnostics, and what each command line parsed to (by statement index), which the
  /// interpreter takes as its own so a line is matched against the table once, not twice.
  package func checkAndParse(_ program: Program) -> (diagnostics: [Diagnostic], parsed: ParsedCommands) {
    var diagnostics: [Diagnostic] = []
    var parsed: ParsedCommands = [:]
    var defined = predefined
    var sawCommand = false
    var testNames: [String: Int] = [:]
    for (index, statement) in program.statements.enumerated() {
      var problems: [Diagnostic.Partial] = []
      func use(_ refs: [VariableRef]) {
        problems += refs.compactMap { checkReference($0, defined: defined, sawCommand: sawCommand) }
      }
      switch statement.kind {
      case .command(let command):
        command.templates.forEach { use($0.variables) }
        if let problem = checkCommand(command, parsed: &parsed[index]) { problems.append(problem) }
        sawCommand = true
      case .expectOK:
        if !sawCommand { problems.append(needsCommand("expect", statement.keywordRange)) }
      case .expectError(let code):
        if !sawCommand { problems.append(needsCommand("expect", statement.keywordRange)) }
        if !ErrorCode.catalogue.contains(ErrorCode(code.text)) {
          let guess = Suggest.closest(to: code.text, among: ErrorCode.catalogue.map(\.rawValue))
          problems.append(
            .init("unknown error code '\(code.text)'", range: code.range, note: guess.map { "did you mean '\($0)'?" }))
        }
      case .assert(let assertion):
        if !sawCommand { problems.append(needsCommand("assert", statement.keywordRange)) }
        problems += checkQuery(assertion.query).map { [$0] } ?? []
        use(assertion.expected?.variables ?? [])
        if let problem = checkRegex(assertion) ?? checkComparison(assertion) { problems.append(problem) }
      case .capture(let name, let query):
        if !sawCommand { problems.append(needsCommand("capture", statement.keywordRange)) }
        problems += checkQuery(query).map { [$0] } ?? []
        problems += checkDefinition(name).map { [$0] } ?? []
        defined.insert(name.text)
      case .assign(let name, let value, _):
        use(value.variables)
        problems += checkDefinition(name).map { [$0] } ?? []
        defined.insert(name.text)
      case .test(let name):
        use(name.variables)
        if name.literalText?.trimmingSpaces.isEmpty == true {
          problems.append(.init("empty test name", range: name.range))
        } else if let problem = duplicateTest(name, range: statement.range, seen: &testNames) {
          problems.append(problem)
        }
      case .include, .cleanup:
        break
      }
      diagnostics += problems.map { $0.diagnostic(in: statement.file) }
    }
    return (diagnostics, parsed)
  }

  func needsCommand(_ keyword: String, _ range: SourceRange) -> Diagnostic.Partial {
    .init("'\(keyword)' has no command to check", range: range, note: "put it after a command")
  }

  /// The table decides: unknown commands and flags, arity, choices. Words with holes are checked
  /// again after interpolation, so a choice like `provider {{p}}` is not judged here.
  func checkCommand(_ command: CommandStatement, parsed: inout ParsedCommand?) -> Diagnostic.Partial? {
    let words = command.tokens.map {
      Word(text: $0.text, start: $0.range.start.column - 1, end: $0.range.end.column - 1, quoted: $0.quoted)
    }
    // `login --help` asks for the help: nothing to check.
    guard HelpRequest.command(in: words) == nil else { return nil }
    let result = InvocationParser.parse(words, surface: .script)
    parsed = ParsedCommand(words: words, parsed: result)
    guard case .failure(let error) = result else { return nil }
    let token = error.wordIndex.flatMap { command.tokens.indices.contains($0) ? command.tokens[$0] : nil }
    if let token, token.text.contains("{{"), error.message.contains("must be one of") { return nil }
    let range =
      token?.range ?? command.tokens.first.map { first in first.range.union(command.tokens.last?.range ?? first.range) }
    guard let range else { return nil }
    // An unknown first word: the closest of the statement keywords and the commands (`asert` is
    // `assert`, not the command `user`), else the parser's suggestion.
    let firstWord = error.wordIndex == 0 ? Checker.keywordSuggestion(for: command.tokens[0].text) : nil
    if let suggestion = firstWord ?? error.suggestion {
      return .init(error.message, range: range, note: "did you mean '\(suggestion)'?")
    }
    let spec = CommandTable.match(command.tokens.map(\.text))?.spec
    let usage = spec.flatMap { $0.surfaces.contains(.script) ? "usage: " + $0.usage(for: .script) : nil }
    return .init(error.message, range: range, note: usage)
  }

  func checkQuery(_ query: Query) -> Diagnostic.Partial? {
    guard let (message, suggestion) = QuerySchema.problem(with: query.segments) else { return nil }
    return .init(message, range: query.range, note: suggestion.map { "did you mean '\($0)'?" })
  }

  func checkDefinition(_ name: Name) -> Diagnostic.Partial? {
    if Checker.builtins.contains(name.text) || name.text == "env" || QuerySchema.root[name.text] != nil {
      return .init(
        "'\(name.text)' is a reserved name", range: name.range,
        note: "it already means something in {{…}}; pick another name")
    }
    return nil
  }

  func checkReference(_ ref: VariableRef, defined: Set<String>, sawCommand: Bool) -> Diagnostic.Partial? {
    let segments = ref.segments
    if Checker.builtins.contains(ref.root) {
      return segments.count == 1 ? nil : .init("'\(ref.root)' has no fields", range: ref.range)
    }
    if ref.root == "env" {
      guard segments.count == 2 else {
        return .init("write {{env.NAME}} for an environment variable", range: ref.range)
      }
      if environment[segments[1]] == nil {
        return .init(
          "environment variable '\(segments[1])' is not set", range: ref.range,
          note:
            "export \(segments[1])=… before the run ({{env.NAME}} reads only the environment; --var NAME=… sets {{NAME}})"
        )
      }
      return nil
    }
    if defined.contains(ref.root) { return nil }
    if QuerySchema.root[ref.root] != nil {
      if !sawCommand {
        return .init("'{{\(ref.name)}}' reads the previous result, but no command ran before", range: ref.range)
      }
      if let (message, suggestion) = QuerySchema.problem(with: segments) {
        return .init(message, range: ref.range, note: suggestion.map { "did you mean '\($0)'?" })
      }
      return nil
    }
    // A near miss among the names a script defines (and the builtins) is offered first; the
    // result's fields (`ok`, `user`) are no variables, so `{{dom}}` is not "did you mean 'ok'".
    let guess = Suggest.closest(to: ref.root, among: (Array(defined) + Checker.builtins).sorted())
    let define =
      "define it with let, secret or capture, or pass --var \(ref.root)=VALUE (or set AUTHSH_VAR_\(ref.root))"
    return .init(
      "undefined variable '\(ref.root)'", range: ref.range,
      note: guess.map { "did you mean '\($0)'? Otherwise \(define)" } ?? define)
  }

  func checkRegex(_ assertion: Assertion) -> Diagnostic.Partial? {
    guard assertion.predicate == .matches, let expected = assertion.expected else { return nil }
    guard case .template(let template) = expected.kind, let pattern = template.literalText else {
      if case .literal = expected.kind {
        return .init("'matches' needs a string pattern", range: expected.range)
      }
      return nil
    }
    if ScriptRegex.compile(pattern) == nil {
      return .init("invalid regular expression", range: expected.range, note: ScriptRegex.reason(pattern))
    }
    return nil
  }
}

/// A command line's words and what the command table made of them.
package struct ParsedCommand: Sendable {
  package var words: [Word]
  package var parsed: Result<Invocation, UsageError>
}

/// By statement index.
package typealias ParsedCommands = [Int: ParsedCommand]
