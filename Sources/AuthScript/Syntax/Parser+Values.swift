import JSONKit

/// Walks the words of one line; the first word (the keyword) is always there.
struct TokenReader {
  let keyword: Token
  private let tokens: [Token]
  private var index = 1
  private(set) var lastRange: SourceRange?

  init(_ line: TokenLine) {
    tokens = line.tokens
    keyword = line.tokens.first ?? Token(text: "", raw: "", quoted: false, range: line.range)
  }

  func peek() -> Token? { index < tokens.count ? tokens[index] : nil }

  mutating func next() -> Token? {
    guard index < tokens.count else { return nil }
    defer { index += 1 }
    lastRange = tokens[index].range
    return tokens[index]
  }

  var rest: [Token] { index < tokens.count ? Array(tokens[index...]) : [] }
}

extension Parser {
  /// `user.email`, `error.fields.password.code`, `claims.app_metadata.provider`, `notes.0`
  /// (also written `notes[0]`: `diagnosis.findings[0].code`).
  static func parseQuery(_ token: Token) -> Result<Query, Diagnostic.Partial> {
    guard !token.quoted else {
      return .failure(
        .init("a query is not quoted", range: token.range, note: "write a dotted path such as user.email"))
    }
    if token.text.contains("{{") {
      return .failure(
        .init("a query cannot contain variables", range: token.range, note: "write a dotted path such as user.email"))
    }
    let segments = Query.pathSegments(token.text)
    let valid = segments.allSatisfy { segment in
      !segment.isEmpty && segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-:$".contains($0)) }
    }
    guard valid, let first = segments.first?.first, first.isLetter || first == "_" else {
      return .failure(
        .init(
          "invalid query '\(token.text)'", range: token.range,
          note: "a query is a dotted path such as user.email or error.code"))
    }
    return .success(Query(segments: segments, range: token.range))
  }

  /// Typed literals: quoted text is a string; bare `42`, `1.5`, `true`, `false`, `null` keep their type;
  /// other bare words are strings; `{{name}}` alone keeps the variable's type.
  static func parseValue(_ token: Token) -> Result<ValueExpr, Diagnostic.Partial> {
    if !token.quoted {
      if let literal = literal(token.text) { return .success(ValueExpr(.literal(literal), range: token.range)) }
    }
    return Template.parse(token).map { ValueExpr(.template($0), range: token.range, quoted: token.quoted) }
  }

  static func literal(_ text: String) -> JSON? {
    switch text {
    case "true": return .bool(true)
    case "false": return .bool(false)
    case "null": return .null
    default: break
    }
    guard isNumber(text) else { return nil }
    if !text.contains("."), !text.contains("e"), !text.contains("E"), let value = Int(text) { return .int(value) }
    if let value = Double(text), value.isFinite { return .double(value) }
    return nil
  }

  /// `-?digits(.digits)?([eE][+-]?digits)?`
  static func isNumber(_ text: String) -> Bool {
    var chars = Substring(text)
    if chars.first == "-" { chars = chars.dropFirst() }
    func digits(_ s: inout Substring) -> Bool {
      let count = s.prefix { $0.isASCII && $0.isNumber }.count
      s = s.dropFirst(count)
      return count > 0
    }
    guard digits(&chars) else { return false }
    if chars.first == "." {
      chars = chars.dropFirst()
      guard digits(&chars) else { return false }
    }
    if chars.first == "e" || chars.first == "E" {
      chars = chars.dropFirst()
      if chars.first == "+" || chars.first == "-" { chars = chars.dropFirst() }
      guard digits(&chars) else { return false }
    }
    return chars.isEmpty
  }

  static func isValidName(_ token: Token) -> Bool {
    guard !token.quoted, let first = token.text.first, first.isASCII, first.isLetter || first == "_" else {
      return false
    }
    return token.text.allSatisfy(Template.isNameCharacter)
  }
}
