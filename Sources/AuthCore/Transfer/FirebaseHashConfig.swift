import Foundation
import JSONKit

/// A Firebase project's password-hash parameters (the admin v2 project config's
/// `signIn.hashConfig`; the file of `--hash-config`): modified scrypt with a signer key and a salt
/// separator. Secret: whoever has the signer key can check guesses against exported hashes.
public struct FirebaseHashConfig: Sendable, Equatable {
  public var algorithm: String
  /// Base64, as the config gives it.
  public var signerKey: String
  public var saltSeparator: String
  public var rounds: Int
  public var memoryCost: Int

  public init(algorithm: String = "SCRYPT", signerKey: String, saltSeparator: String, rounds: Int, memoryCost: Int) {
    self.algorithm = algorithm
    self.signerKey = signerKey
    self.saltSeparator = saltSeparator
    self.rounds = rounds
    self.memoryCost = memoryCost
  }

  /// From `{"algorithm":"SCRYPT","signerKey":…,"saltSeparator":…,"rounds":8,"memoryCost":14}`
  /// (numbers may be strings, as Google's JSON writes 64-bit ones); nil when it is not one.
  public init?(json: JSON) {
    guard let object = json.object, let key = object["signerKey"]?.string, !key.isEmpty,
      let rounds = object["rounds"]?.intOrNumericString, let memoryCost = object["memoryCost"]?.intOrNumericString,
      (1...8).contains(rounds), (1...14).contains(memoryCost)
    else { return nil }
    let algorithm = object["algorithm"]?.string ?? "SCRYPT"
    guard algorithm == "SCRYPT" else { return nil }
    self.init(
      algorithm: algorithm, signerKey: Base64Text.standard(key), saltSeparator: Base64Text.standard(object["saltSeparator"]?.string ?? ""),
      rounds: rounds, memoryCost: memoryCost)
  }

  /// The admin v2 project config's `signIn.hashConfig`, or the bare object (a `--hash-config` file).
  public static func from(projectConfig json: JSON) -> FirebaseHashConfig? {
    if let nested = json["signIn"]?["hashConfig"] { return FirebaseHashConfig(json: nested) }
    if let nested = json["hashConfig"] { return FirebaseHashConfig(json: nested) }
    return FirebaseHashConfig(json: json)
  }

  public var json: JSON {
    [
      "algorithm": .string(algorithm), "signerKey": .string(signerKey), "saltSeparator": .string(saltSeparator),
      "rounds": .int(rounds), "memoryCost": .int(memoryCost),
    ]
  }

  /// GoTrue's `$fbscrypt$` string for one account's hash and salt (base64 of either alphabet, as
  /// Identity Toolkit returns them): `n` is the memory cost as GoTrue reads it — the power of two
  /// (`n=14` is 2^14), `r` the rounds, `p=1`.
  public func passwordHash(hash: String, salt: String) -> String {
    "$fbscrypt$v=1,n=\(memoryCost),r=\(rounds),p=1,ss=\(Base64Text.standard(saltSeparator)),sk=\(Base64Text.standard(signerKey))$"
      + Base64Text.standard(salt) + "$" + Base64Text.standard(hash)
  }
}

/// Base64 in the standard alphabet with padding, whatever alphabet it came in (Google's APIs
/// return bytes as web-safe base64).
public enum Base64Text {
  public static func standard(_ text: String) -> String {
    var result = text.trimmingWhitespace.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    result = result.replacingOccurrences(of: "=", with: "")
    let remainder = result.count % 4
    if remainder > 0 { result += String(repeating: "=", count: 4 - remainder) }
    return result
  }
}

extension Base64Text {
  /// Standard base64 with padding.
  public static func encode(_ bytes: [UInt8]) -> String {
    let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index < bytes.count {
      let b0 = bytes[index]
      let b1 = index + 1 < bytes.count ? bytes[index + 1] : 0
      let b2 = index + 2 < bytes.count ? bytes[index + 2] : 0
      out.append(table[Int(b0 >> 2)])
      out.append(table[Int((b0 & 0x03) << 4 | b1 >> 4)])
      out.append(index + 1 < bytes.count ? table[Int((b1 & 0x0F) << 2 | b2 >> 6)] : 61)
      out.append(index + 2 < bytes.count ? table[Int(b2 & 0x3F)] : 61)
      index += 3
    }
    return String(decoding: out, as: UTF8.self)
  }
}
