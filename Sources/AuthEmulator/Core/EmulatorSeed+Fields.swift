import Crypto
import Essentials
import JSONKit

extension EmulatorSeedAccount {
  /// The id given, or one derived from the backend and e-mail: the same line makes the same
  /// account every time (a restart with `--state` finds it, scripts can name it). Anonymous
  /// accounts without an id get a new one each time.
  package var stableID: String? {
    if let id { return id }
    guard let email else { return nil }
    let digest = Array(SHA256.hash(data: Array(("authsh-seed:" + backend.rawValue + ":" + email).utf8)))
    switch backend {
    case .supabase:
      var bytes = Array(digest.prefix(16))
      bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
      bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
      let hex = NumberText.hex(bytes)
      let parts = [
        hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4),
        hex.dropFirst(20),
      ]
      return parts.joined(separator: "-")
    case .firebase:
      let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
      return String(digest.prefix(28).map { alphabet[Int($0) % alphabet.count] })
    }
  }
}

/// Typed reads of a seed line's fields (a wrong type names the field).
extension EmulatorSeed {
  static func string(_ object: JSONObject, _ key: String) throws -> String? {
    guard let value = object[key], !value.isNull else { return nil }
    guard let text = value.string else { throw EmulatorSeedError("\"\(key)\" must be a string") }
    return text
  }

  static func bool(_ object: JSONObject, _ key: String) throws -> Bool? {
    guard let value = object[key], !value.isNull else { return nil }
    guard let flag = value.bool else { throw EmulatorSeedError("\"\(key)\" must be true or false") }
    return flag
  }

  static func stringList(_ object: JSONObject, _ key: String) throws -> [String]? {
    guard let value = object[key], !value.isNull else { return nil }
    guard let items = value.array, let strings = Optional(items.compactMap(\.string)), strings.count == items.count
    else {
      throw EmulatorSeedError("\"\(key)\" must be a list of strings, e.g. [\"google\"]")
    }
    return strings
  }
}
