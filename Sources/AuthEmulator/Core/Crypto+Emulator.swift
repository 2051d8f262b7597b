import Crypto
import Essentials
import HummingbirdBcrypt
import JSONKit

/// bcrypt hashes, as GoTrue stores them. Plain text is never kept.
///
/// The C bcrypt reads its key as a C string and only its first 72 bytes. So that neither a NUL
/// byte nor the 73rd byte ends the comparison early, the key is normalised first: NUL and U+0001
/// are escaped (U+0001 U+0001 / U+0001 U+0002), and a key that is then longer than 72 bytes is
/// replaced by `$sha256$` + its base64url SHA-256. Ordinary passwords (≤ 72 bytes, no control
/// characters) are hashed exactly as GoTrue hashes them.
package enum PasswordHasher {
  package static func hash(_ password: String, cost: Int) -> String {
    Bcrypt.hash(key(password), cost: UInt8(clamping: min(max(cost, 4), 31)))
  }

  package static func verify(_ password: String, hash: String) -> Bool {
    Bcrypt.verify(key(password), hash: hash)
  }

  static func key(_ password: String) -> String {
    var key = password
    if password.utf8.contains(where: { $0 <= 1 }) {
      var bytes: [UInt8] = []
      for byte in password.utf8 {
        switch byte {
        case 0: bytes += [1, 1]
        case 1: bytes += [1, 2]
        default: bytes.append(byte)
        }
      }
      key = String(decoding: bytes, as: UTF8.self)
    }
    guard key.utf8.count > 72 else { return key }
    return "$sha256$" + Base64URL.encode(SHA256.hash(data: Array(key.utf8)))
  }
}

/// Compact JWS helpers for the emulator's own tokens.
package enum EmulatorJWT {
  /// `header.payload.signature` signed with HMAC-SHA256.
  package static func signHS256(_ claims: JSON, secret: String) -> String {
    let header: JSON = ["alg": "HS256", "typ": "JWT"]
    let signingInput = Base64URL.encode(header.bytes) + "." + Base64URL.encode(claims.bytes)
    let mac = HMAC<SHA256>.authenticationCode(
      for: Array(signingInput.utf8), using: SymmetricKey(data: Array(secret.utf8)))
    return signingInput + "." + Base64URL.encode(Data(mac))
  }

  /// The claims of an HS256 token whose signature matches `secret`; nil otherwise.
  package static func verifyHS256(_ token: String, secret: String) -> JSON? {
    var token = token
    return token.withUTF8 { bytes -> JSON? in
      guard let (firstDot, secondDot) = dots(bytes) else { return nil }
      let headerSegment = UnsafeBufferPointer(rebasing: bytes[..<firstDot])
      if !headerSegment.elementsEqual(standardHeaderSegment) {
        guard let headerBytes = Base64URL.decode(headerSegment), let header = try? JSON.parse(bytes: headerBytes),
          header["alg"]?.string == "HS256"
        else { return nil }
      }
      guard let signature = Base64URL.decode(UnsafeBufferPointer(rebasing: bytes[(secondDot + 1)...])) else {
        return nil
      }
      let signingInput = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[..<secondDot])
      let key = SymmetricKey(data: Array(secret.utf8))
      guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signingInput, using: key) else {
        return nil
      }
      return payload(UnsafeBufferPointer(rebasing: bytes[(firstDot + 1)..<secondDot]))
    }
  }

  /// `header.payload.` with `alg: none`, as the Firebase Auth emulator mints ID tokens.
  package static func unsigned(_ claims: JSON) -> String {
    let header: JSON = ["alg": "none", "typ": "JWT"]
    return Base64URL.encode(header.bytes) + "." + Base64URL.encode(claims.bytes) + "."
  }

  /// The payload of any compact JWT, without checking anything.
  package static func decodePayload(_ token: String) -> JSON? {
    var token = token
    return token.withUTF8 { bytes -> JSON? in
      guard let (firstDot, secondDot) = dots(bytes) else { return nil }
      return payload(UnsafeBufferPointer(rebasing: bytes[(firstDot + 1)..<secondDot]))
    }
  }

  /// `{"alg":"HS256","typ":"JWT"}` encoded, as this emulator (and most libraries) write it.
  private static let standardHeaderSegment = Array("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9".utf8)

  /// Positions of the two dots of a three-segment token.
  private static func dots(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int)? {
    var found: [Int] = []
    for index in bytes.indices where bytes[index] == UInt8(ascii: ".") {
      found.append(index)
      if found.count > 2 { return nil }
    }
    return found.count == 2 ? (found[0], found[1]) : nil
  }

  private static func payload(_ segment: UnsafeBufferPointer<UInt8>) -> JSON? {
    guard let bytes = Base64URL.decode(segment) else { return nil }
    return try? JSON.parse(bytes: bytes)
  }

  /// Lowercase hex SHA-224, as GoTrue's token_hash (`hex(SHA-224(email + otp))`).
  package static func sha224Hex(_ text: String) -> String {
    SHA224.hash(Array(text.utf8)).map { byte in
      let hex = String(byte, radix: 16)
      return hex.count == 1 ? "0" + hex : hex
    }.joined()
  }
}
