extension JSON {
  /// Compact JSON text (`{"a":1}`), keys in insertion order.
  public var compactText: String {
    var out = ""
    write(to: &out, indent: nil, level: 0)
    return out
  }

  /// Pretty JSON text with two-space indentation, as Node and `jq` print it.
  public var prettyText: String {
    var out = ""
    write(to: &out, indent: "  ", level: 0)
    return out
  }

  public var bytes: [UInt8] { Array(compactText.utf8) }

  private func write(to out: inout String, indent: String?, level: Int) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .int(let value): out += String(value)
    case .double(let value): out += JSON.format(value)
    case .string(let value): JSON.writeString(value, to: &out)
    case .array(let items):
      if items.isEmpty {
        out += "[]"
        return
      }
      out += "["
      for (position, item) in items.enumerated() {
        if position > 0 { out += "," }
        JSON.newline(&out, indent: indent, level: level + 1)
        item.write(to: &out, indent: indent, level: level + 1)
      }
      JSON.newline(&out, indent: indent, level: level)
      out += "]"
    case .object(let object):
      if object.isEmpty {
        out += "{}"
        return
      }
      out += "{"
      for (position, pair) in object.pairs.enumerated() {
        if position > 0 { out += "," }
        JSON.newline(&out, indent: indent, level: level + 1)
        JSON.writeString(pair.key, to: &out)
        out += indent == nil ? ":" : ": "
        pair.value.write(to: &out, indent: indent, level: level + 1)
      }
      JSON.newline(&out, indent: indent, level: level)
      out += "}"
    }
  }

  private static func newline(_ out: inout String, indent: String?, level: Int) {
    guard let indent else { return }
    out += "\n"
    for _ in 0..<level { out += indent }
  }

  private static func format(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
    return String(value)
  }

  static func writeString(_ value: String, to out: inout String) {
    out += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case "\u{00}"..."\u{1F}", "\u{7F}":
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
