import Crypto
import Essentials
import ExtrasBase64

/// RFC 6238 time-based one-time passwords (RFC 4226 HOTP over a 30-second counter), as both
/// products verify second factors and authenticator apps make them: HMAC-SHA1, 6 digits,
/// 30-second steps. The one implementation: the emulator verifies with it, the client computes
/// `--totp-secret-env` codes and the scripts' `totp(secret)` with it.
package enum TOTP {
  package enum Algorithm: String, Sendable {
    case sha1 = "SHA1", sha256 = "SHA256", sha512 = "SHA512"
  }

  /// The code for `counter` (RFC 4226 §5.3: dynamic truncation, then modulo 10^digits).
  package static func code(key: [UInt8], counter: UInt64, digits: Int = 6, algorithm: Algorithm = .sha1) -> String {
    var message = [UInt8](repeating: 0, count: 8)
    for index in 0..<8 { message[index] = UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64(index))) }
    let symmetricKey = SymmetricKey(data: key)
    let mac: [UInt8]
    switch algorithm {
    case .sha1: mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: symmetricKey))
    case .sha256: mac = Array(HMAC<SHA256>.authenticationCode(for: message, using: symmetricKey))
    case .sha512: mac = Array(HMAC<SHA512>.authenticationCode(for: message, using: symmetricKey))
    }
    let offset = Int(mac[mac.count - 1] & 0x0F)
    let binary =
      (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16)
      | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
    var modulus: UInt32 = 1
    for _ in 0..<min(max(digits, 1), 9) { modulus *= 10 }
    let value = String(binary % modulus)
    return String(repeating: "0", count: max(0, digits - value.count)) + value
  }

  /// The 30-second step `time` falls in (RFC 6238 T = floor(unix time / period)).
  package static func counter(at time: Date, period: Int = 30) -> UInt64 {
    UInt64(max(0, time.timeIntervalSince1970.rounded(.down)) / Double(max(period, 1)))
  }

  package static func code(secret: String, at time: Date, period: Int = 30, digits: Int = 6) -> String? {
    guard let key = decodeSecret(secret) else { return nil }
    return code(key: key, counter: counter(at: time, period: period), digits: digits)
  }

  /// The 6-digit code of `secret` (base32, as in an `otpauth://` URI) at Unix time `unixTime`; nil
  /// when the secret is not base32.
  package static func code(secret: String, unixTime: Int) -> String? {
    guard let key = decodeSecret(secret) else { return nil }
    return code(key: key, counter: UInt64(max(0, unixTime) / 30))
  }

  /// True when `code` is the code of the current step or of one of the `window` steps either side
  /// (GoTrue: pquerna/otp `Skew: 1`, so the previous, current and next step).
  package static func verify(_ code: String, secret: String, at time: Date, window: Int = 1) -> Bool {
    guard code.utf8.count == 6, code.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let key = decodeSecret(secret)
    else {
      return false
    }
    let now = counter(at: time)
    for delta in -window...window {
      let step = Int64(now) + Int64(delta)
      guard step >= 0 else { continue }
      if ConstantTime.equal(Self.code(key: key, counter: UInt64(step)), code) { return true }
    }
    return false
  }

  /// Base32 (RFC 4648) as authenticator apps accept it: case-insensitive, spaces and padding
  /// ignored. nil when it is not base32 or decodes to nothing.
  package static func decodeSecret(_ text: String) -> [UInt8]? {
    let cleaned = String(text.uppercased().filter { $0 != " " && $0 != "=" && $0 != "-" })
    guard !cleaned.isEmpty, cleaned.allSatisfy({ ("A"..."Z").contains($0) || ("2"..."7").contains($0) }) else {
      return nil
    }
    let remainder = cleaned.count % 8
    // Lengths 1, 3 and 6 (mod 8) are not the end of any whole byte.
    guard ![1, 3, 6].contains(remainder) else { return nil }
    let padded = cleaned + String(repeating: "=", count: remainder == 0 ? 0 : 8 - remainder)
    guard let bytes = try? Base32.decode(string: padded), !bytes.isEmpty else { return nil }
    return bytes
  }

  /// The canonical form of a secret the emulator stores: upper case, no spaces or padding.
  package static func normalisedSecret(_ text: String) -> String? {
    guard let bytes = decodeSecret(text) else { return nil }
    return Base32.encodeToString(bytes: bytes, options: .omitPaddingCharacter)
  }

}
