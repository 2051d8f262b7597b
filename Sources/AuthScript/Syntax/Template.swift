import Essentials

/// A `{{name}}` reference inside a word: `email`, `env.HOME`, `inbox.link`, `uuid`.
package struct VariableRef: Sendable, Hashable {
  /// The dotted name with surrounding spaces trimmed.
  package var name: String
  package var range: SourceRange
  /// A function applied to the value (`{{totp(secret)}}`: `totp`), nil for a plain reference.
  package var function: String?

  package init(name: String, range: SourceRange, function: String? = nil) {
    self.name = name
    self.range = range
    self.function = function
  }

  /// The functions a hole can apply: `totp(NAME)`, the current RFC 6238 code of a base32 secret.
  package static let functions: Set<String> = ["totp"]

  package var segments: [String] { Query.pathSegments(name) }
  package var root: String { segments.first ?? name }
}

/// Text with `{{…}}` holes, as one word of a line.
package struct Template: Sendable, Hashable {
  package enum Part: Sendable, Hashable {
    case text(String)
    case variable(VariableRef)
  }

  package var parts: [Part]
  package var range: SourceRange

  package init(parts: [Part], range: SourceRange) {
    self.parts = parts
    self.range = range
  }

  package var variables: [VariableRef] {
    parts.compactMap { if case .variable(let ref) = $0 { return ref } else { return nil } }
  }

  /// The single variable when the template is exactly `{{name}}` (then it keeps its type).
  package var soleVariable: VariableRef? {
    if parts.count == 1, case .variable(let ref) = parts[0] { return ref }
    return nil
  }

  /// Plain text when there are no holes.
  package var literalText: String? {
    if parts.isEmpty { return "" }
    if parts.count == 1, case .text(let text) = parts[0] { return text }
    return nil
  }

  /// Valid characters of a variable name segment.
  static func isNameCharacter(_ c: Character) -> Bool {
    c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "-")
  }

  /// Splits a token's text into parts. Holes must hold a dotted name (`{{ user.id }}`).
  package static func parse(_ token: Token) -> Result<Template, Diagnostic.Partial> {
    // Most words hold no `{{`: they are their own text, with no need to walk their characters.
    if !token.text.utf8.contains(UInt8(ascii: "{")) {
      return .success(Template(parts: token.text.isEmpty ? [] : [.text(token.text)], range: token.range))
    }
    let text = Array(token.text)
    let raw = Array(token.raw)
    var rawSearch = 0
    var parts: [Part] = []
    var literal = ""
    var index = 0
    while index < text.count {
      guard text[index] == "{", index + 1 < text.count, text[index + 1] == "{" else {
        literal.append(text[index])
        index += 1
        continue
      }
      var close = index + 2
      while close + 1 < text.count, !(text[close] == "}" && text[close + 1] == "}") { close += 1 }
      // Where this hole sits in the line, for carets: the matching `{{` of the raw word.
      let rawStart = firstBraces(in: raw, from: rawSearch) ?? 0
      let rawEnd = min(raw.count, rawStart + (min(close + 2, text.count) - index))
      rawSearch = rawEnd
      let column = token.range.start.column - 1
      let holeRange = SourceRange(line: token.range.start.line, offsets: column + rawStart, column + rawEnd)
      guard close + 1 < text.count else {
        return .failure(.init("unterminated '{{'", range: holeRange, note: "close the variable with '}}'"))
      }
      var name = String(text[(index + 2)..<close]).trimmingSpaces
      var function: String?
      if let open = name.firstIndex(of: "("), name.hasSuffix(")") {
        let called = String(name[..<open])
        guard VariableRef.functions.contains(called) else {
          return .failure(
            .init("unknown function '\(called)'", range: holeRange, note: "the functions are: totp(NAME)"))
        }
        function = called
        name = String(name[name.index(after: open)..<name.index(before: name.endIndex)]).trimmingSpaces
      }
      let segments = name.split(separator: ".", omittingEmptySubsequences: false)
      guard !name.isEmpty, segments.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isNameCharacter) }) else {
        return .failure(
          .init(
            "invalid variable '{{\(name)}}'", range: holeRange,
            note: "a variable is a name like {{email}}, {{env.HOME}} or {{user.id}}, or totp(NAME)"))
      }
      if !literal.isEmpty { parts.append(.text(literal)) }
      literal = ""
      parts.append(.variable(VariableRef(name: name, range: holeRange, function: function)))
      index = close + 2
    }
    if !literal.isEmpty { parts.append(.text(literal)) }
    return .success(Template(parts: parts, range: token.range))
  }

  private static func firstBraces(in raw: [Character], from start: Int) -> Int? {
    var i = max(0, start)
    while i + 1 < raw.count {
      if raw[i] == "{", raw[i + 1] == "{" { return i }
      i += 1
    }
    return nil
  }
}

extension Diagnostic {
  /// A diagnostic before its file is known (the parser adds the file).
  package struct Partial: Error, Sendable, Hashable {
    package var title: String
    package var range: SourceRange
    package var note: String?
    package init(_ title: String, range: SourceRange, note: String? = nil) {
      self.title = title
      self.range = range
      self.note = note
    }
    package func diagnostic(in file: SourceFile) -> Diagnostic {
      Diagnostic(title, file: file, range: range, note: note)
    }
  }
}
