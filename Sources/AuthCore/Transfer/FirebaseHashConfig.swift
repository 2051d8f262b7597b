import Essentials
import JSONKit

/// What `user export` needs of the project's hash parameters (`FirebaseHashConfig`).
extension FirebaseHashConfig {
  /// The admin v2 project config's `signIn.hashConfig`, a tenant's `hashConfig`, or the bare object
  /// (a `--hash-config` file); nil when there is no complete SCRYPT config (production leaves the
  /// keys out for a caller that may not read them).
  package static func from(projectConfig json: JSON) -> FirebaseHashConfig? {
    let object = json["signIn"]?["hashConfig"] ?? json["hashConfig"] ?? json
    return (try? FirebaseHashConfig(json: object)).flatMap { $0.isFirebaseScrypt ? $0 : nil }
  }

  package var json: JSON {
    [
      "algorithm": "SCRYPT", "signerKey": .string(signerKey), "saltSeparator": .string(saltSeparator),
      "rounds": .int(rounds), "memoryCost": .int(memoryCost),
    ]
  }

  /// GoTrue's `$fbscrypt$` string for one account's hash and salt (base64 of either alphabet, as
  /// Identity Toolkit returns them): `n` is the memory cost as GoTrue reads it — the power of two
  /// (`n=14` is 2^14), `r` the rounds, `p=1`; everything in standard base64.
  package func passwordHash(hash: String, salt: String) -> String {
    "$fbscrypt$v=1,n=\(memoryCost),r=\(rounds),p=1,ss=\(Base64Text.standard(saltSeparator)),sk=\(Base64Text.standard(signerKey))$"
      + Base64Text.standard(salt) + "$" + Base64Text.standard(hash)
  }
}

/// Base64 in the standard alphabet with padding, whatever alphabet it came in (Google's APIs
/// return bytes as web-safe base64).
package enum Base64Text {
  package static func standard(_ text: String) -> String {
    var result = text.trimmingWhitespace.replacingAll("-", with: "+").replacingAll("_", with: "/")
    result = result.replacingAll("=", with: "")
    let remainder = result.count % 4
    if remainder > 0 { result += String(repeating: "=", count: 4 - remainder) }
    return result
  }
}

extension Base64Text {
  /// Standard base64 with padding.
  package static func encode(_ bytes: [UInt8]) -> String {
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
