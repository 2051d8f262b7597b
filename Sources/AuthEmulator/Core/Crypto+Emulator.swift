import Crypto
import Foundation
import HummingbirdBcrypt
import JSONKit

/// bcrypt hashes, as GoTrue stores them. Plain text is never kept.
public enum PasswordHasher {
  public static func hash(_ password: String, cost: Int) -> String {
    Bcrypt.hash(password, cost: UInt8(clamping: min(max(cost, 4), 31)))
  }

  public static func verify(_ password: String, hash: String) -> Bool {
    Bcrypt.verify(password, hash: hash)
  }
}

/// Base64url without padding (JWT segments).
public enum Base64URL {
  public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
    Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  public static func decode(_ text: String) -> [UInt8]? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    return Data(base64Encoded: base64).map { Array($0) }
  }
}

/// Compact JWS helpers for the emulator's own tokens.
public enum EmulatorJWT {
  /// `header.payload.signature` signed with HMAC-SHA256.
  public static func signHS256(_ claims: JSON, secret: String) -> String {
    let header: JSON = ["alg": "HS256", "typ": "JWT"]
    let signingInput = Base64URL.encode(header.bytes) + "." + Base64URL.encode(claims.bytes)
    let mac = HMAC<SHA256>.authenticationCode(for: Array(signingInput.utf8), using: SymmetricKey(data: Array(secret.utf8)))
    return signingInput + "." + Base64URL.encode(Data(mac))
  }

  /// The claims of an HS256 token whose signature matches `secret`; nil otherwise.
  public static func verifyHS256(_ token: String, secret: String) -> JSON? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3,
      let headerBytes = Base64URL.decode(String(parts[0])), let header = try? JSON.parse(bytes: headerBytes),
      header["alg"]?.string == "HS256",
      let signature = Base64URL.decode(String(parts[2]))
    else { return nil }
    let signingInput = Array("\(parts[0]).\(parts[1])".utf8)
    let key = SymmetricKey(data: Array(secret.utf8))
    guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signingInput, using: key) else { return nil }
    return decodePayload(token)
  }

  /// `header.payload.` with `alg: none`, as the Firebase Auth emulator mints ID tokens.
  public static func unsigned(_ claims: JSON) -> String {
    let header: JSON = ["alg": "none", "typ": "JWT"]
    return Base64URL.encode(header.bytes) + "." + Base64URL.encode(claims.bytes) + "."
  }

  /// The payload of any compact JWT, without checking anything.
  public static func decodePayload(_ token: String) -> JSON? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let bytes = Base64URL.decode(String(parts[1])) else { return nil }
    return try? JSON.parse(bytes: bytes)
  }

  /// Lowercase hex SHA-224, as GoTrue's token_hash (`hex(SHA-224(email + otp))`).
  public static func sha224Hex(_ text: String) -> String {
    SHA224.hash(Array(text.utf8)).map { byte in
      let hex = String(byte, radix: 16)
      return hex.count == 1 ? "0" + hex : hex
    }.joined()
  }
}
