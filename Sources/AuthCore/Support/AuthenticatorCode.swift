import Crypto
import Essentials

/// RFC 6238 time-based one-time codes (SHA-1, 6 digits, 30-second steps: what authenticator apps,
/// GoTrue and Identity Platform use), for `--totp-secret-env` and the scripts' `totp(secret)`.
public enum AuthenticatorCode {
  public static let period = 30
  public static let digits = 6

  /// The code for `secret` (base32, as in an `otpauth://` URI) at Unix time `now`; nil when the
  /// secret is not base32.
  public static func code(secret: String, at now: Int) -> String? {
    guard let key = base32Decode(secret), !key.isEmpty else { return nil }
    var counter = UInt64(max(0, now) / period).bigEndian
    let message = withUnsafeBytes(of: &counter) { Data($0) }
    let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    let offset = Int(mac[mac.count - 1] & 0x0f)
    let binary =
      (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
      | UInt32(mac[offset + 3])
    let value = binary % 1_000_000
    let text = String(value)
    return String(repeating: "0", count: digits - text.count) + text
  }

  /// RFC 4648 base32, case-insensitive, spaces, dashes and padding ignored; nil on any other character.
  public static func base32Decode(_ text: String) -> [UInt8]? {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
    var bytes: [UInt8] = []
    var buffer: UInt32 = 0
    var bits = 0
    for character in text.uppercased().utf8 {
      if character == UInt8(ascii: "=") || character == UInt8(ascii: " ") || character == UInt8(ascii: "-") { continue }
      guard let index = alphabet.firstIndex(of: character) else { return nil }
      buffer = (buffer << 5) | UInt32(index)
      bits += 5
      if bits >= 8 {
        bits -= 8
        bytes.append(UInt8((buffer >> UInt32(bits)) & 0xff))
      }
    }
    return bytes
  }
}
