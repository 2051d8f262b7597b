import JSONKit

/// How values read in failures and holes.
package enum Values {
  /// `string <a@example.com>`, `number <42>`, `boolean <true>`, `null`, `none` (no value).
  package static func typed(_ value: JSON?) -> String {
    guard let value else { return "none" }
    switch value {
    case .null: return "null"
    case .bool(let flag): return "boolean <\(flag)>"
    case .int, .double: return "number <\(text(value))>"
    case .string(let string): return "string <\(string)>"
    case .array: return "array <\(value.compactText)>"
    case .object: return "object <\(value.compactText)>"
    }
  }

  /// The text a value takes inside a word or string.
  package static func text(_ value: JSON) -> String {
    switch value {
    case .string(let string): return string
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .int(let number): return String(number)
    case .double(let number):
      if number.rounded() == number, abs(number) < 1e15 { return String(Int(number)) }
      return String(number)
    case .array, .object: return value.compactText
    }
  }

  /// Follows a dotted path (`error.fields.password.code`, `notes.0`); nil when a step is missing.
  package static func lookup(_ segments: some Collection<String>, in value: JSON) -> JSON? {
    var current = value
    for segment in segments {
      switch current {
      case .object(let object):
        guard let next = object[segment] else { return nil }
        current = next
      case .array(let items):
        guard let index = Int(segment), items.indices.contains(index) else { return nil }
        current = items[index]
      default:
        return nil
      }
    }
    return current
  }
}
