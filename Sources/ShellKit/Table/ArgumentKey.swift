/// Something a command row can list as one of its positionals.
package protocol DeclaredArgument: Sendable {
  var spec: ArgumentSpec { get }
}

/// A positional declared once, with its spec and the type it reads as: `invocation[.sleepDuration]`
/// is a `Double?` of seconds, checked and decoded when the line was parsed, like a `FlagKey`.
/// Reading a key whose name its command does not declare fails in debug builds (tests run them).
package struct ArgumentKey<Value: Sendable>: DeclaredArgument {
  package let spec: ArgumentSpec
  let extract: @Sendable (FlagValue) -> Value?

  init(_ spec: ArgumentSpec, extract: @escaping @Sendable (FlagValue) -> Value?) {
    self.spec = spec
    self.extract = extract
  }

  package var name: String { spec.name }
}

extension ArgumentKey where Value == String {
  /// A value used as written (checked against `choices` when there are any); for a variadic
  /// argument, each of its words (`invocation.all(key)`).
  static func text(_ spec: ArgumentSpec) -> Self {
    precondition(spec.kind != .duration, "\(spec.name) is a duration, not text")
    return Self(spec) { value in value.text }
  }
}

extension ArgumentKey where Value == Double {
  /// A short duration, in seconds.
  static func duration(_ spec: ArgumentSpec) -> Self {
    precondition(spec.kind == .duration && !spec.variadic, "\(spec.name) needs kind .duration")
    return Self(spec) { value in
      if case .seconds(let seconds, _) = value { return seconds }
      return nil
    }
  }
}

extension Invocation {
  /// The positional's value, decoded; nil when it was not given.
  package subscript<Value>(_ key: ArgumentKey<Value>) -> Value? {
    checkDeclared(key.spec)
    return arguments[key.name].flatMap(key.extract)
  }

  /// Every word of a variadic positional (`echo TEXT…`, `run FILE…`), in order.
  package func all(_ key: ArgumentKey<String>) -> [String] {
    checkDeclared(key.spec)
    assert(key.spec.variadic, "\(key.name) is not variadic: read it with invocation[key]")
    return rest
  }

  private func checkDeclared(_ argument: ArgumentSpec) {
    assert(
      spec.arguments.contains { $0.name == argument.name && $0.kind == argument.kind },
      "'\(spec.name)' reads \(argument.name), which its row in the command table does not declare")
  }
}
