import Essentials
import HTTPServerKit
import JSONKit

/// A JSON request body read the way Go's `json.Unmarshal` reads it into a params struct: unknown
/// fields ignored, `null` = zero value, a wrong type or broken JSON = 400 `bad_json`.
struct RequestParams {
  let object: JSONObject

  init(_ request: ServerRequest) throws {
    let parsed: JSON
    do {
      parsed = try JSON.parse(bytes: request.body)
    } catch let error as JSONParseError {
      let reason =
        request.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 })
        ? "unexpected end of JSON input" : error.description
      throw Self.badJSON(reason)
    }
    switch parsed {
    case .object(let object): self.object = object
    case .null: self.object = JSONObject()
    default: throw Self.badJSON("json: cannot unmarshal \(parsed.typeName) into Go value of type api.Params")
    }
  }

  init(object: JSONObject) { self.object = object }

  static func badJSON(_ reason: String) -> GoTrueError {
    .badRequest("bad_json", "Could not parse request body as JSON: \(reason)")
  }

  private func mismatch(_ key: String, _ value: JSON, _ type: String) -> GoTrueError {
    Self.badJSON("json: cannot unmarshal \(value.typeName) into Go struct field .\(key) of type \(type)")
  }

  /// The string, or "" when absent or null.
  func string(_ key: String) throws -> String { try optionalString(key) ?? "" }

  /// The string, or nil when absent or null (Go `*string`).
  func optionalString(_ key: String) throws -> String? {
    guard let value = object[key], !value.isNull else { return nil }
    guard let text = value.string else { throw mismatch(key, value, "string") }
    return text
  }

  func bool(_ key: String) throws -> Bool {
    guard let value = object[key], !value.isNull else { return false }
    guard let flag = value.bool else { throw mismatch(key, value, "bool") }
    return flag
  }

  /// The object, or nil when absent or null (Go `map[string]interface{}`).
  func object(_ key: String) throws -> JSONObject? {
    guard let value = object[key], !value.isNull else { return nil }
    guard let nested = value.object else { throw mismatch(key, value, "map[string]interface {}") }
    return nested
  }
}

/// Input rules of GoTrue (`mail.go` `validateEmail`, `password.go`).
enum GoTrueRules {
  static let minimumPasswordBytes = 6
  static let maximumPasswordBytes = 72

  /// `validatePhone` (phone.go): without a leading `+` and spaces, E.164's digits (`^[1-9][0-9]{1,14}$`).
  static func validatePhone(_ phone: String) throws -> String {
    var number = phone.hasPrefix("+") ? String(phone.dropFirst()) : phone
    number = number.replacingAll(" ", with: "")
    let digits = Array(number.utf8)
    guard (2...15).contains(digits.count), digits[0] != UInt8(ascii: "0"),
      digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { throw GoTrueError.validation("Invalid phone number format (E.164 required)") }
    return number
  }

  /// Checks the format (checkmail's pattern), the length, and lower-cases the address.
  static func validateEmail(_ email: String) throws -> String {
    if email.isEmpty { throw GoTrueError.validation("An email address is required") }
    if email.utf8.count > 255 { throw GoTrueError.validation("An email address is too long") }
    guard isValidEmailFormat(email) else {
      throw GoTrueError.validation("Unable to validate email address: invalid format")
    }
    return email.lowercased()
  }

  /// `^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$`
  static func isValidEmailFormat(_ email: String) -> Bool {
    let bytes = Array(email.utf8)
    guard let at = bytes.firstIndex(of: UInt8(ascii: "@")), at > 0 else { return false }
    let localSpecials = Set(".!#$%&'*+/=?^_`{|}~-".utf8)
    for byte in bytes[..<at] where !(isAlphanumeric(byte) || localSpecials.contains(byte)) { return false }
    let domain = bytes[(at + 1)...]
    guard !domain.isEmpty else { return false }
    for label in domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
      guard let first = label.first, let last = label.last, label.count <= 63,
        isAlphanumeric(first), isAlphanumeric(last),
        label.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") })
      else { return false }
    }
    return true
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  /// `checkPasswordStrength`: at least 6 bytes (422 `weak_password`), at most 72 (bcrypt's limit).
  static func checkPasswordStrength(_ password: String) throws {
    let length = password.utf8.count
    if length > maximumPasswordBytes {
      throw GoTrueError.validation("Password cannot be longer than \(maximumPasswordBytes) characters")
    }
    if length < minimumPasswordBytes {
      throw GoTrueError(
        status: 422, code: "weak_password",
        message: "Password should be at least \(minimumPasswordBytes) characters.", weakPasswordReasons: ["length"])
    }
  }

  /// The `weak_password` object of a password grant: null when the password meets the policy.
  static func weakPasswordJSON(_ password: String) -> JSON {
    guard password.utf8.count < minimumPasswordBytes else { return .null }
    return [
      "message": .string("Password should be at least \(minimumPasswordBytes) characters."), "reasons": ["length"],
    ]
  }
}
