/// A JSON value that keeps object keys in insertion order.
///
/// Generic infrastructure only: wire shapes live with the code that speaks them, so the
/// client providers and the emulator never share a field name by accident.
package enum JSON: Sendable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSON])
  case object(JSONObject)
}

/// An object whose keys keep the order they were inserted in (Go and Node serialise in a
/// fixed order; so do we).
package struct JSONObject: Sendable, Equatable {
  /// The members in insertion order. Objects are small (a user has about twenty members): a scan
  /// finds a key faster than hashing it, and building one costs no hash table.
  /// (A struct, not a tuple: an array of tuples is destroyed through the runtime's generic
  /// tuple witness, member by member, which was a twentieth of a script step.)
  private var entries: [Member] = []
  /// Positions by key, kept only once an object has more than `scanned` members.
  private var positions: [String: Int]?
  private static let scanned = 24

  private struct Member: Sendable {
    var key: String
    var value: JSON
    /// `key.utf8.count`, kept: most keys differ in length, and comparing lengths costs no string
    /// compare.
    var length: Int
  }

  package init() {}
  package init(_ pairs: [(String, JSON)]) {
    for (key, value) in pairs { self[key] = value }
  }

  package var keys: [String] { entries.map(\.key) }

  /// Room for `count` members without growing (the parser makes objects member by member).
  package mutating func reserveCapacity(_ count: Int) { entries.reserveCapacity(count) }

  private func position(of key: String) -> Int? {
    if let positions { return positions[key] }
    // Lengths first (a scan of integers); the key is compared only where they agree.
    let length = key.utf8.count
    var index = 0
    while index < entries.count {
      if entries[index].length == length, entries[index].key == key { return index }
      index += 1
    }
    return nil
  }

  package subscript(key: String) -> JSON? {
    get { position(of: key).map { entries[$0].value } }
    set {
      if let newValue {
        if let found = position(of: key) {
          entries[found].value = newValue
        } else {
          entries.append(Member(key: key, value: newValue, length: key.utf8.count))
          if positions != nil {
            positions?[key] = entries.count - 1
          } else if entries.count > Self.scanned {
            index()
          }
        }
      } else if let found = position(of: key) {
        entries.remove(at: found)
        if positions != nil { index() }
      }
    }
  }

  private mutating func index() {
    positions = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($0.element.key, $0.offset) })
  }

  package var count: Int { entries.count }
  package var isEmpty: Bool { entries.isEmpty }
  package var pairs: [(key: String, value: JSON)] { entries.map { ($0.key, $0.value) } }

  /// The same members with the same values, in any order.
  package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    lhs.count == rhs.count && lhs.entries.allSatisfy { rhs[$0.key] == $0.value }
  }
}

extension JSON: Equatable {
  package static func == (lhs: JSON, rhs: JSON) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.int(let a), .int(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b
    case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Double(a) == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)): return a == b
    default: return false
    }
  }
}

// MARK: - Typed access (nil when the value has another type: callers decide what that means)

extension JSON {
  package subscript(key: String) -> JSON? {
    if case .object(let object) = self { return object[key] }
    return nil
  }

  package subscript(index: Int) -> JSON? {
    if case .array(let items) = self, items.indices.contains(index) { return items[index] }
    return nil
  }

  package var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  package var bool: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// An integer, from a JSON integer or an integral double.
  package var int: Int? {
    switch self {
    case .int(let value): return value
    case .double(let value) where value.rounded() == value && abs(value) < 9e15: return Int(value)
    default: return nil
    }
  }

  /// An integer from a number or a decimal string (Google APIs send 64-bit numbers as strings).
  package var intOrNumericString: Int? {
    if let value = int { return value }
    if case .string(let text) = self { return Int(text) }
    return nil
  }

  package var double: Double? {
    switch self {
    case .int(let value): return Double(value)
    case .double(let value): return value
    default: return nil
    }
  }

  package var array: [JSON]? {
    if case .array(let items) = self { return items }
    return nil
  }

  package var object: JSONObject? {
    if case .object(let object) = self { return object }
    return nil
  }

  package var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The name of the value's JSON type, for messages ("expected string, got number").
  package var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "boolean"
    case .int, .double: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }
}

// MARK: - Literals

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
  ExpressibleByNilLiteral
{
  package init(stringLiteral value: String) { self = .string(value) }
  package init(integerLiteral value: Int) { self = .int(value) }
  package init(booleanLiteral value: Bool) { self = .bool(value) }
  package init(floatLiteral value: Double) { self = .double(value) }
  package init(arrayLiteral elements: JSON...) { self = .array(elements) }
  package init(dictionaryLiteral elements: (String, JSON)...) { self = .object(JSONObject(elements)) }
  package init(nilLiteral: ()) { self = .null }
}

extension JSON {
  /// `.string(value)` or `.null` when nil.
  package static func optional(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }
}
