import Essentials
import HTTPServerKit
import JSONKit

/// A request body as the official emulator's handlers see it: keys normalised to lowerCamel
/// (lodash `camelCase`, recursively), `null` members dropped, and values checked against the
/// operation's schema (numbers become strings where strings are expected, enum indexes become names).
struct FirebaseBody {
  private(set) var object: JSONObject

  init(_ object: JSONObject = JSONObject()) { self.object = object }

  /// Parses a JSON body, or a form-encoded one when `allowForm` and the content type says so.
  /// An empty body is an empty object.
  static func parse(_ request: ServerRequest, allowForm: Bool = false) throws -> FirebaseBody {
    let contentType = request.header("Content-Type")?.lowercased() ?? ""
    if allowForm, contentType.contains("application/x-www-form-urlencoded") {
      var object = JSONObject()
      for (name, value) in FormCoding.decode(String(decoding: request.body, as: UTF8.self)) where object[name] == nil {
        object[name] = .string(value)
      }
      return FirebaseBody(normalised(object))
    }
    if request.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
      return FirebaseBody()
    }
    let json: JSON
    do {
      json = try JSON.parse(bytes: request.body)
    } catch let error as JSONParseError {
      throw FirebaseError.invalidArgument("Unexpected token in JSON at position \(error.offset)", reason: "parseError")
    }
    guard case .object(let object) = json else {
      throw FirebaseError.invalidArgument("Request body should be object")
    }
    return FirebaseBody(normalised(object))
  }

  // MARK: - Access (JavaScript truthiness, as the handlers test fields)

  subscript(key: String) -> JSON? { object[key] }

  /// The field when present (after validation a string field is a string).
  func string(_ key: String) -> String? { object[key]?.string }

  /// The field when it is a non-empty string (`if (reqBody.email)`).
  func truthy(_ key: String) -> String? {
    guard let value = object[key]?.string, !value.isEmpty else { return nil }
    return value
  }

  func bool(_ key: String) -> Bool? { object[key]?.bool }

  /// True when the field is present with a truthy value (non-empty string, true, non-zero, any object/array).
  func isTruthy(_ key: String) -> Bool {
    switch object[key] {
    case nil, .null?: return false
    case .bool(let value)?: return value
    case .string(let value)?: return !value.isEmpty
    case .int(let value)?: return value != 0
    case .double(let value)?: return value != 0
    case .array?, .object?: return true
    }
  }

  func has(_ key: String) -> Bool { object[key] != nil }

  func strings(_ key: String) -> [String] { object[key]?.array?.compactMap(\.string) ?? [] }

  // MARK: - Schema

  enum FieldType {
    case string, bool, integer, object
    case stringArray
    case enumeration([String])
    case enumerationArray([String])
  }

  /// Checks the listed fields (others are ignored, as the emulator ignores unknown fields) and
  /// applies the REST-mapping fixes. Fails with 400 `INVALID_ARGUMENT` like the schema validator.
  mutating func validate(_ schema: [(String, FieldType)]) throws {
    for (key, type) in schema {
      guard let value = object[key] else { continue }
      object[key] = try Self.check(value, as: type, path: "/" + key)
    }
  }

  private static func check(_ value: JSON, as type: FieldType, path: String) throws -> JSON {
    switch (type, value) {
    case (.string, .string): return value
    case (.string, .int(let number)): return .string(String(number))
    case (.string, .double(let number)): return .string(javaScriptNumber(number))
    case (.bool, .bool), (.integer, .int), (.object, .object): return value
    case (.integer, .double(let number)) where number.rounded() == number: return value
    case (.stringArray, .array(let items)):
      return .array(try items.enumerated().map { try check($0.element, as: .string, path: "\(path)/\($0.offset)") })
    case (.enumeration(let names), .string(let name)):
      guard names.contains(name) else {
        throw FirebaseError.invalidArgument("\(path) should be equal to one of the allowed values")
      }
      return value
    case (.enumeration(let names), .int(let index)):
      guard names.indices.contains(index) else {
        throw FirebaseError.invalidArgument("\(path) should be equal to one of the allowed values")
      }
      return .string(names[index])
    case (.enumerationArray(let names), .array(let items)):
      return .array(
        try items.enumerated().map { try check($0.element, as: .enumeration(names), path: "\(path)/\($0.offset)") })
    default:
      throw FirebaseError.invalidArgument("\(path) should be \(type.name)")
    }
  }

  /// JavaScript's `Number(text)`: trimmed, `""` is 0, `Infinity` with a sign, `0x`/`0o`/`0b`
  /// integers, decimal literals; anything else (`inf`, `nan`, `1e`, `12abc`) is NaN. Swift's
  /// `Double(_:)` accepts more (`inf`, `nan`, hex floats), so it only sees plain decimals.
  static func javaScriptNumber(_ text: String) -> Double {
    let trimmed = text.trimmingSpacesAndNewlines
    if trimmed.isEmpty { return 0 }
    switch trimmed {
    case "Infinity", "+Infinity": return .infinity
    case "-Infinity": return -.infinity
    default: break
    }
    let lower = trimmed.lowercased()
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where lower.hasPrefix(prefix) {
      let digits = lower.dropFirst(2)
      guard !digits.isEmpty else { return .nan }
      var value = 0.0
      for character in digits {
        guard let digit = character.hexDigitValue, digit < radix else { return .nan }
        value = value * Double(radix) + Double(digit)
      }
      return value
    }
    let allowed = Set("0123456789.eE+-")
    guard trimmed.allSatisfy(allowed.contains), trimmed.contains(where: \.isNumber), let value = Double(trimmed) else {
      return .nan
    }
    return value
  }

  private static func javaScriptNumber(_ number: Double) -> String {
    if number.isNaN { return "NaN" }
    if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
    if number.rounded() == number, abs(number) < 1e15 { return String(Int(number)) }
    return String(number)
  }

  // MARK: - Key normalisation

  static func normalised(_ object: JSONObject) -> JSONObject {
    var result = JSONObject()
    for (key, value) in object.pairs {
      if case .null = value { continue }
      result[camelCase(key)] = normalised(value)
    }
    return result
  }

  private static func normalised(_ value: JSON) -> JSON {
    switch value {
    case .object(let object): return .object(normalised(object))
    case .array(let items): return .array(items.map(normalised))
    default: return value
    }
  }

  /// lodash `camelCase` for ASCII keys: split into words (separators, case changes, digit runs),
  /// lowercase them, capitalise all but the first.
  static func camelCase(_ key: String) -> String {
    isCamelCase(key) ? key : camelCaseByWords(key)
  }

  /// `camelCase` the long way, word by word.
  static func camelCaseByWords(_ key: String) -> String {
    var result = ""
    for (index, word) in words(key).enumerated() {
      let lower = word.lowercased()
      result += index == 0 ? lower : lower.prefix(1).uppercased() + lower.dropFirst()
    }
    return result
  }

  /// True when `camelCase` would give `key` back: ASCII letters, lowercase first, each capital
  /// followed by a lowercase letter (`localId`, `passwordHash`). Every key of a body passes here,
  /// so the usual one is not split into words.
  static func isCamelCase(_ key: String) -> Bool {
    var previousUpper = true
    for byte in key.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"): previousUpper = false
      case UInt8(ascii: "A")...UInt8(ascii: "Z") where !previousUpper: previousUpper = true
      default: return false
      }
    }
    return !previousUpper
  }

  private static func words(_ key: String) -> [String] {
    let characters = Array(key)
    var words: [String] = []
    var index = 0
    while index < characters.count {
      let character = characters[index]
      if character.isNumber, character.isASCII {
        var end = index
        while end < characters.count, characters[end].isNumber, characters[end].isASCII { end += 1 }
        words.append(String(characters[index..<end]))
        index = end
      } else if character.isUppercase {
        var end = index
        while end < characters.count, characters[end].isUppercase { end += 1 }
        if end < characters.count, characters[end].isLowercase {
          // "OOBCode" → "OOB" + "Code": the last capital starts the next word.
          if end - index > 1 {
            words.append(String(characters[index..<(end - 1)]))
            index = end - 1
            continue
          }
          while end < characters.count, characters[end].isLowercase { end += 1 }
        }
        words.append(String(characters[index..<end]))
        index = end
      } else if character.isLowercase {
        var end = index
        while end < characters.count, characters[end].isLowercase { end += 1 }
        words.append(String(characters[index..<end]))
        index = end
      } else {
        index += 1
      }
    }
    return words
  }
}

extension FirebaseBody.FieldType {
  var name: String {
    switch self {
    case .string, .enumeration: return "string"
    case .bool: return "boolean"
    case .integer: return "integer"
    case .object: return "object"
    case .stringArray, .enumerationArray: return "array"
    }
  }
}
