import AuthCore
import Essentials
import JSONKit
import OneTimeCode
import ShellKit

/// A hole that could not be filled at run time.
struct UnresolvedVariable: Error {
  var title: String
  var range: SourceRange
  var note: String?
}

/// The variables of one file's run, the previous result, and how `{{…}}` holes are filled.
struct Scope {
  var variables: [String: JSON]
  var environment: [String: String]
  /// The previous command's result model (tokens revealed: output goes through the redactor).
  var previous: JSON?
  var now: () -> Int
  /// Definitions skipped after a failure, by name → line (for a better message).
  var skippedDefinitions: [String: Int] = [:]

  /// Where secrets met while filling holes go (`totp(secret)`'s secret): masked in every output.
  var redactor: Redactor?

  func resolve(_ ref: VariableRef) throws(UnresolvedVariable) -> JSON {
    if ref.function == "totp" {
      var inner = ref
      inner.function = nil
      let secret = Values.text(try resolve(inner))
      redactor?.register(secret)
      guard let code = TOTP.code(secret: secret, unixTime: now()) else {
        throw UnresolvedVariable(
          title: "totp(\(ref.name)) needs a base32 TOTP secret", range: ref.range,
          note: "letters A–Z and digits 2–7, as in the otpauth:// URI's secret=")
      }
      redactor?.register(code)
      return .string(code)
    }
    let segments = ref.segments
    if segments.count == 1, let builtin = TemplateBuiltin(rawValue: ref.root) {
      switch builtin.value(now: now()) {
      case .text(let text): return .string(text)
      case .integer(let number): return .int(number)
      }
    }
    switch ref.root {
    case "env":
      guard segments.count == 2, let value = environment[segments[1]] else {
        throw UnresolvedVariable(
          title: "environment variable '\(segments.dropFirst().joined(separator: "."))' is not set", range: ref.range)
      }
      return .string(value)
    default: break
    }
    if let value = variables[ref.root] {
      guard let found = Values.lookup(segments.dropFirst(), in: value) else {
        throw UnresolvedVariable(
          title: "'\(ref.name)' has no value", range: ref.range, note: "\(ref.root) is \(Values.typed(value))")
      }
      return found
    }
    if QuerySchema.root[ref.root] != nil {
      guard let previous else {
        throw UnresolvedVariable(title: "no previous result for '{{\(ref.name)}}'", range: ref.range)
      }
      guard let found = Values.lookup(segments, in: previous), !found.isNull else {
        let command = previous["command"]?.string ?? "the previous command"
        throw UnresolvedVariable(
          title: "'\(ref.name)' has no value", range: ref.range, note: "the result of '\(command)' has no \(ref.name)")
      }
      return found
    }
    let note =
      skippedDefinitions[ref.root].map { "it is set at line \($0), which did not run" }
      ?? "define it with let, secret or capture, or pass --var \(ref.root)=VALUE (or set AUTHSH_VAR_\(ref.root))"
    throw UnresolvedVariable(title: "undefined variable '\(ref.root)'", range: ref.range, note: note)
  }

  /// The longest text a template may make: a `let` that doubles itself line after line would
  /// otherwise grow until the process is killed.
  static let maximumText = 1 << 20

  /// The template as text.
  func render(_ template: Template) throws(UnresolvedVariable) -> String {
    var out = ""
    for part in template.parts {
      switch part {
      case .text(let text): out += text
      case .variable(let ref):
        out += Values.text(try resolve(ref))
        guard out.utf8.count <= Self.maximumText else {
          throw UnresolvedVariable(
            title: "'{{\(ref.name)}}' makes a value longer than \(Self.maximumText / 1024) KB", range: ref.range,
            note: "a value built from itself (let v = \"{{v}}{{v}}\") doubles on every line; values are capped at 1 MB")
        }
      }
    }
    return out
  }

  /// A typed value: literals as written, `{{x}}` alone keeps x's type, anything else is a string.
  func evaluate(_ value: ValueExpr) throws(UnresolvedVariable) -> JSON {
    switch value.kind {
    case .literal(let literal): return literal
    case .template(let template):
      if !value.quoted, let ref = template.soleVariable { return try resolve(ref) }
      return .string(try render(template))
    }
  }
}
