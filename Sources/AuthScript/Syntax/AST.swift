import JSONKit

/// A name being defined (`let NAME = …`), with where it was written.
package struct Name: Sendable, Hashable {
  package var text: String
  package var range: SourceRange
  package init(_ text: String, range: SourceRange) {
    self.text = text
    self.range = range
  }
}

/// A dotted path into the previous command's result model (`user.email`, `error.fields.password.code`).
package struct Query: Sendable, Hashable {
  package var segments: [String]
  package var range: SourceRange
  package init(segments: [String], range: SourceRange) {
    self.segments = segments
    self.range = range
  }
  package var text: String { segments.joined(separator: ".") }

  /// A dotted path's segments; an index may also be written in brackets (`findings[0].code` is
  /// `findings.0.code`). Unbalanced brackets stay in the segment (and are then reported as invalid).
  package static func pathSegments(_ text: String) -> [String] {
    var normalized = ""
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "[") {
      let after = rest[rest.index(after: open)...]
      guard let close = after.firstIndex(of: "]"), !after[..<close].isEmpty, after[..<close].allSatisfy(\.isNumber)
      else {
        break
      }
      normalized += rest[..<open] + "." + after[..<close]
      rest = after[after.index(after: close)...]
    }
    normalized += rest
    return normalized.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
  }
}

/// A typed value as written: `"text"` (with holes), `42`, `1.5`, `true`, `false`, `null`, or a bare word.
package struct ValueExpr: Sendable, Equatable {
  package enum Kind: Sendable, Equatable {
    /// A number, boolean or null written as such.
    case literal(JSON)
    /// A string: quoted, bare, or holes (`{{email}}` alone keeps the variable's type).
    case template(Template)
  }
  package var kind: Kind
  package var range: SourceRange
  /// Written in quotes: always a string, even `"{{n}}"`.
  package var quoted: Bool
  package init(_ kind: Kind, range: SourceRange, quoted: Bool = false) {
    self.kind = kind
    self.range = range
    self.quoted = quoted
  }
  package var variables: [VariableRef] {
    if case .template(let template) = kind { return template.variables }
    return []
  }
}

package enum Predicate: String, Sendable, Hashable, CaseIterable {
  case equal = "=="
  case notEqual = "!="
  case less = "<"
  case lessOrEqual = "<="
  case greater = ">"
  case greaterOrEqual = ">="
  case contains, startsWith, endsWith, matches, exists, isEmpty

  /// `exists` and `isEmpty` take no value.
  package var takesValue: Bool { self != .exists && self != .isEmpty }
}

/// `assert [not] QUERY PREDICATE [VALUE]`.
package struct Assertion: Sendable, Equatable {
  package var negated: Bool
  package var query: Query
  package var predicate: Predicate
  package var predicateRange: SourceRange
  package var expected: ValueExpr?
  package init(negated: Bool, query: Query, predicate: Predicate, predicateRange: SourceRange, expected: ValueExpr?) {
    self.negated = negated
    self.query = query
    self.predicate = predicate
    self.predicateRange = predicateRange
    self.expected = expected
  }
}

/// A table command line, kept as words: the checker matches them against `CommandTable`, the
/// interpreter fills the holes and matches again.
package struct CommandStatement: Sendable, Hashable {
  package var tokens: [Token]
  /// One template per token, same order.
  package var templates: [Template]
  package init(tokens: [Token], templates: [Template]) {
    self.tokens = tokens
    self.templates = templates
  }
}

package enum StatementKind: Sendable, Equatable {
  case command(CommandStatement)
  /// `expect ok`; the range is the word `ok`.
  case expectOK(SourceRange)
  case expectError(Name)
  case assert(Assertion)
  case capture(Name, Query)
  /// `let` (secret: false) and `secret` (secret: true).
  case assign(Name, ValueExpr, secret: Bool)
  case test(Template)
  /// `cleanup`: the lines after it (to the next `test` or the end of the file) run after every
  /// test of the file, also after a failure or an interruption; the range is the word.
  case cleanup(SourceRange)
  /// The path as written and as resolved against the including file's directory.
  case include(written: String, resolved: String, range: SourceRange)
}

package struct Statement: Sendable, Equatable {
  package var kind: StatementKind
  /// The whole line.
  package var range: SourceRange
  /// The first word (the keyword or command name).
  package var keywordRange: SourceRange
  package var file: SourceFile

  package init(_ kind: StatementKind, range: SourceRange, keywordRange: SourceRange, file: SourceFile) {
    self.kind = kind
    self.range = range
    self.keywordRange = keywordRange
    self.file = file
  }

  package var isCommand: Bool {
    if case .command = kind { return true }
    return false
  }
}

/// One parsed file.
package struct Script: Sendable, Equatable {
  package var file: SourceFile
  package var statements: [Statement]
  package init(file: SourceFile, statements: [Statement]) {
    self.file = file
    self.statements = statements
  }
}
