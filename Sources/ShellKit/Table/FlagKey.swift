/// A flag's value as decoded when the line was parsed, with the text as given (for history,
/// `retry` and the "next page" command lines).
package enum FlagValue: Sendable, Hashable {
  /// A switch (`--json`).
  case on
  /// Text of any kind that is used as written (e-mail, path, URL, a choice).
  case text(String)
  /// A whole number within the flag's bounds.
  case number(Int, String)
  /// A short duration in seconds (`--timeout 30s`, at most 24h).
  case seconds(Double, String)
  /// A long span (`--until 7d`, `--since 2w`).
  case span(Span, String)
  /// A value of a kind of its own, read by the flag's own decoder (`--fault SPEC`).
  case decoded(DecodedValue)

  /// The text as given (empty for a switch).
  package var text: String {
    switch self {
    case .on: return ""
    case .text(let text), .number(_, let text), .seconds(_, let text), .span(_, let text): return text
    case .decoded(let decoded): return decoded.text
    }
  }
}

/// A long span of time (bans, `--since`): seconds, minutes, hours, days, weeks or years, at
/// least one second and at most 100 years. A different kind from the short durations of
/// timeouts and `sleep` (at most 24h), so neither can be given where the other belongs.
package struct Span: Sendable, Hashable {
  package let seconds: Int
  package init(seconds: Int) { self.seconds = seconds }
}

/// What a flag's own decoder made of its text. Two are equal when their texts are: a decoder
/// is a function of the text.
package struct DecodedValue: Sendable, Hashable {
  package let value: any Sendable
  package let text: String

  package static func == (lhs: DecodedValue, rhs: DecodedValue) -> Bool { lhs.text == rhs.text }
  package func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

/// The decoder of a flag whose values no `ValueKind` describes, run when the line is parsed.
package struct FlagDecoder: Sendable, Hashable {
  /// The flag it decodes (what makes two decoders the same).
  let flag: String
  let decode: @Sendable (String) -> Result<any Sendable, UsageError>

  package static func == (lhs: FlagDecoder, rhs: FlagDecoder) -> Bool { lhs.flag == rhs.flag }
  package func hash(into hasher: inout Hasher) { hasher.combine(flag) }
}

/// Something a command row can list as one of its flags.
package protocol DeclaredFlag: Sendable {
  var spec: FlagSpec { get }
}

/// A flag declared once, with its spec and the type it reads as: `invocation[.until]` is a
/// `Span?`, `invocation[.json]` a `Bool`. A misspelt key does not compile; reading a key its
/// command does not declare fails in debug builds (tests run them).
package struct FlagKey<Value: Sendable>: DeclaredFlag {
  package let spec: FlagSpec
  let extract: @Sendable (FlagValue) -> Value?

  init(_ spec: FlagSpec, extract: @escaping @Sendable (FlagValue) -> Value?) {
    self.spec = spec
    self.extract = extract
  }

  package var name: String { spec.name }
}

extension FlagKey where Value == Bool {
  /// A switch: present or not.
  static func toggle(_ spec: FlagSpec) -> Self {
    precondition(!spec.takesValue, "\(spec.name) takes a value: not a switch")
    return Self(spec) { _ in true }
  }
}

extension FlagKey where Value == String {
  /// A value used as written (checked against `choices` when there are any).
  static func text(_ spec: FlagSpec) -> Self {
    precondition(
      spec.takesValue && ![ValueKind.number, .duration, .span].contains(spec.kind), "\(spec.name) is not text")
    return Self(spec) { value in value.text }
  }
}

extension FlagKey {
  /// A value its own decoder reads when the line is parsed; what it refuses is a usage error
  /// there (`--fault 'POST /x teapot'`), like a number out of bounds.
  static func decoded(_ spec: FlagSpec, _ decode: @escaping @Sendable (String) -> Result<Value, UsageError>) -> Self {
    precondition(spec.takesValue, "\(spec.name) takes no value to decode")
    var spec = spec
    spec.decoder = FlagDecoder(flag: spec.name) { text in decode(text).map { $0 } }
    return Self(spec) { value in
      if case .decoded(let decoded) = value { return decoded.value as? Value }
      return nil
    }
  }
}

extension FlagKey where Value == String {
  /// Text that may not be empty (`--state ""` names no file).
  static func nonEmpty(_ spec: FlagSpec) -> Self {
    decoded(spec) { text in text.isEmpty ? .failure(UsageError("\(spec.name) needs a non-empty value")) : .success(text)
    }
  }
}

extension FlagKey where Value == Int {
  static func number(_ spec: FlagSpec) -> Self {
    precondition(spec.kind == .number && spec.bounds != nil, "\(spec.name) needs kind .number and bounds")
    return Self(spec) { value in
      if case .number(let number, _) = value { return number }
      return nil
    }
  }
}

extension FlagKey where Value == Double {
  /// A short duration, in seconds.
  static func duration(_ spec: FlagSpec) -> Self {
    precondition(spec.kind == .duration, "\(spec.name) needs kind .duration")
    return Self(spec) { value in
      if case .seconds(let seconds, _) = value { return seconds }
      return nil
    }
  }
}

extension FlagKey where Value == Span {
  static func span(_ spec: FlagSpec) -> Self {
    precondition(spec.kind == .span, "\(spec.name) needs kind .span")
    return Self(spec) { value in
      if case .span(let span, _) = value { return span }
      return nil
    }
  }
}

extension Invocation {
  /// Whether a switch was given.
  package subscript(_ key: FlagKey<Bool>) -> Bool {
    checkDeclared(key.spec)
    return flags[key.name] != nil
  }

  /// The flag's value (the last one given), decoded; nil when the flag is absent.
  package subscript<Value>(_ key: FlagKey<Value>) -> Value? {
    checkDeclared(key.spec)
    return flags[key.name]?.last.flatMap(key.extract)
  }

  /// Every value of a repeatable flag (`--var a=1 --var b=2`), in order.
  package func all<Value>(_ key: FlagKey<Value>) -> [Value] {
    checkDeclared(key.spec)
    return (flags[key.name] ?? []).compactMap(key.extract)
  }

  /// The flag's text as given (`--limit 20` → "20"), for command lines shown back to the user.
  package func text<Value>(of key: FlagKey<Value>) -> String? {
    checkDeclared(key.spec)
    return flags[key.name]?.last?.text
  }

  /// An output flag (`--json`, `--verbose`, `--timeout`, …) read by code shared by all commands:
  /// false or nil for a command that does not take them.
  package func output(_ key: FlagKey<Bool>) -> Bool { spec.takesOutputFlags && self[key] }
  package func output<Value>(_ key: FlagKey<Value>) -> Value? { spec.takesOutputFlags ? self[key] : nil }

  /// A switch read by code shared by several commands (renderers): false for a command whose
  /// row does not declare it.
  package func given<Value>(_ key: FlagKey<Value>) -> Bool { spec.accepts(key.name) && flags[key.name] != nil }

  /// Whether any of the keys was given (`--password`, `--password-env`, `--password-stdin`).
  package func hasAny(_ keys: [any DeclaredFlag]) -> Bool { keys.contains { flags[$0.spec.name] != nil } }

  /// A read of a flag the command does not accept is a bug in the caller: with the same name
  /// on another command the value could be something else entirely.
  private func checkDeclared(_ flag: FlagSpec) {
    assert(
      spec.accepts(flag.name),
      "'\(spec.name)' reads \(flag.name), which its row in the command table does not declare")
  }
}
