import Essentials
import JSONKit

/// Reads the claims of a JWT without verifying it (the client has no key; the server checks).
package enum JWTClaims {
  package static func decode(_ token: String) -> JSON? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    guard let bytes = Base64.decode(String(parts[1])), let claims = try? JSON.parse(bytes: bytes),
      claims.object != nil
    else { return nil }
    return claims
  }

  /// `exp` in Unix seconds.
  /// `exp` in Unix seconds; nil when absent or not a plausible time.
  package static func expiry(_ token: String) -> Int? {
    decode(token)?["exp"]?.int.flatMap { UnixTime.isPlausible($0) ? $0 : nil }
  }
}
