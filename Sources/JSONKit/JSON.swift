/// A JSON value that keeps object keys in insertion order.
///
/// Generic infrastructure only: wire shapes live with the code that speaks them, so the
/// client providers and the emulator never share a field name by accident.
public enum JSON: Sendable {
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
public struct JSONObject: Sendable, Equatable {
  public private(set) var keys: [String] = []
  private var storage: [String: JSON] = [:]

  public init() {}
  public init(_ pairs: [(String, JSON)]) {
    for (key, value) in pairs { self[key] = value }
  }

  public subscript(key: String) -> JSON? {
    get { storage[key] }
    set {
      if let newValue {
        if storage.updateValue(newValue, forKey: key) == nil { keys.append(key) }
      } else if storage.removeValue(forKey: key) != nil {
        keys.removeAll { $0 == key }
      }
    }
  }

  public var count: Int { keys.count }
  public var isEmpty: Bool { keys.isEmpty }
  public var pairs: [(key: String, value: JSON)] {
    keys.compactMap { key in storage[key].map { (key, $0) } }
  }

  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    lhs.storage == rhs.storage
  }
}

extension JSON: Equatable {
  public static func == (lhs: JSON, rhs: JSON) -> Bool {
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
  public subscript(key: String) -> JSON? {
    if case .object(let object) = self { return object[key] }
    return nil
  }

  public subscript(index: Int) -> JSON? {
    if case .array(let items) = self, items.indices.contains(index) { return items[index] }
    return nil
  }

  public var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  public var bool: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// An integer, from a JSON integer or an integral double.
  public var int: Int? {
    switch self {
    case .int(let value): return value
    case .double(let value) where value.rounded() == value && abs(value) < 9e15: return Int(value)
    default: return nil
    }
  }

  /// An integer from a number or a decimal string (Google APIs send 64-bit numbers as strings).
  public var intOrNumericString: Int? {
    if let value = int { return value }
    if case .string(let text) = self { return Int(text) }
    return nil
  }

  public var double: Double? {
    switch self {
    case .int(let value): return Double(value)
    case .double(let value): return value
    default: return nil
    }
  }

  public var array: [JSON]? {
    if case .array(let items) = self { return items }
    return nil
  }

  public var object: JSONObject? {
    if case .object(let object) = self { return object }
    return nil
  }

  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The name of the value's JSON type, for messages ("expected string, got number").
  public var typeName: String {
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
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(floatLiteral value: Double) { self = .double(value) }
  public init(arrayLiteral elements: JSON...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(JSONObject(elements)) }
  public init(nilLiteral: ()) { self = .null }
}

extension JSON {
  /// `.string(value)` or `.null` when nil.
  public static func optional(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }
}
