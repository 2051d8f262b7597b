import JSONKit

/// A name being defined (`let NAME = …`), with where it was written.
public struct Name: Sendable, Hashable {
  public var text: String
  public var range: SourceRange
  public init(_ text: String, range: SourceRange) {
    self.text = text
    self.range = range
  }
}

/// A dotted path into the previous command's result model (`user.email`, `error.fields.password.code`).
public struct Query: Sendable, Hashable {
  public var segments: [String]
  public var range: SourceRange
  public init(segments: [String], range: SourceRange) {
    self.segments = segments
    self.range = range
  }
  public var text: String { segments.joined(separator: ".") }

  /// A dotted path's segments; an index may also be written in brackets (`findings[0].code` is
  /// `findings.0.code`). Unbalanced brackets stay in the segment (and are then reported as invalid).
  public static func pathSegments(_ text: String) -> [String] {
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
public struct ValueExpr: Sendable, Equatable {
  public enum Kind: Sendable, Equatable {
    /// A number, boolean or null written as such.
    case literal(JSON)
    /// A string: quoted, bare, or holes (`{{email}}` alone keeps the variable's type).
    case template(Template)
  }
  public var kind: Kind
  public var range: SourceRange
  /// Written in quotes: always a string, even `"{{n}}"`.
  public var quoted: Bool
  public init(_ kind: Kind, range: SourceRange, quoted: Bool = false) {
    self.kind = kind
    self.range = range
    self.quoted = quoted
  }
  public var variables: [VariableRef] {
    if case .template(let template) = kind { return template.variables }
    return []
  }
}

public enum Predicate: String, Sendable, Hashable, CaseIterable {
  case equal = "=="
  case notEqual = "!="
  case less = "<"
  case lessOrEqual = "<="
  case greater = ">"
  case greaterOrEqual = ">="
  case contains, startsWith, endsWith, matches, exists, isEmpty

  /// `exists` and `isEmpty` take no value.
  public var takesValue: Bool { self != .exists && self != .isEmpty }
}

/// `assert [not] QUERY PREDICATE [VALUE]`.
public struct Assertion: Sendable, Equatable {
  public var negated: Bool
  public var query: Query
  public var predicate: Predicate
  public var predicateRange: SourceRange
  public var expected: ValueExpr?
  public init(negated: Bool, query: Query, predicate: Predicate, predicateRange: SourceRange, expected: ValueExpr?) {
    self.negated = negated
    self.query = query
    self.predicate = predicate
    self.predicateRange = predicateRange
    self.expected = expected
  }
}

/// A table command line, kept as words: the checker matches them against `CommandTable`, the
/// interpreter fills the holes and matches again.
public struct CommandStatement: Sendable, Hashable {
  public var tokens: [Token]
  /// One template per token, same order.
  public var templates: [Template]
  public init(tokens: [Token], templates: [Template]) {
    self.tokens = tokens
    self.templates = templates
  }
}

public enum StatementKind: Sendable, Equatable {
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

public struct Statement: Sendable, Equatable {
  public var kind: StatementKind
  /// The whole line.
  public var range: SourceRange
  /// The first word (the keyword or command name).
  public var keywordRange: SourceRange
  public var file: SourceFile

  public init(_ kind: StatementKind, range: SourceRange, keywordRange: SourceRange, file: SourceFile) {
    self.kind = kind
    self.range = range
    self.keywordRange = keywordRange
    self.file = file
  }

  public var isCommand: Bool {
    if case .command = kind { return true }
    return false
  }
}

/// One parsed file.
public struct Script: Sendable, Equatable {
  public var file: SourceFile
  public var statements: [Statement]
  public init(file: SourceFile, statements: [Statement]) {
    self.file = file
    self.statements = statements
  }
}
