import ExtrasBase64
import OneTimeCode

extension TOTP {
  /// A fresh 20-byte secret in unpadded upper-case base32 (32 characters), as pquerna/otp makes them.
  package static func newSecret() -> String {
    var generator = PooledRandom()
    let bytes = (0..<20).map { _ in UInt8.random(in: 0...255, using: &generator) }
    return Base32.encodeToString(bytes: bytes, options: .omitPaddingCharacter)
  }
}
