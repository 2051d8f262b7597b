import AuthCore
import CryptoExtras
import Essentials
import JSONKit

/// The signed JWT a service account presents to Google's token endpoint (OAuth 2.0 JWT-bearer
/// grant, RFC 7523): RS256 over `header.claims`, `kid` = the key's id, valid for one hour.
struct ServiceAccountAssertion {
  static let scopes = "https://www.googleapis.com/auth/identitytoolkit https://www.googleapis.com/auth/cloud-platform"
  /// What an impersonating service account asks for (IAM Credentials needs cloud-platform).
  static let cloudPlatform = "https://www.googleapis.com/auth/cloud-platform"
  static let lifetime = 3600
  /// `iat` is set this far in the past, as Google's Go library does (`jws.ClaimSet`: "Reverting
  /// time back for machines whose time is not perfectly in sync"): a clock a few seconds fast
  /// would otherwise get `invalid_grant` (an assertion issued in the future).
  static let backdate = 10

  let account: ServiceAccount
  let key: _RSA.Signing.PrivateKey

  /// Parses the account's key; a key that is not RSA PEM is a configuration error naming the file.
  init(account: ServiceAccount) throws {
    self.account = account
    do {
      key = try _RSA.Signing.PrivateKey(pemRepresentation: account.privateKeyPEM)
    } catch {
      throw AuthError(
        .configError,
        message: "The private_key of \(account.clientEmail) in \(account.path) is not a usable RSA private key.",
        hint:
          "Download the key again: Firebase console › Project settings › Service accounts › Generate new private key.")
    }
  }

  /// `header.claims.signature`, issued `backdate` seconds before `now`, valid for an hour from then.
  func signed(now: Date, scopes: String = Self.scopes) throws -> String {
    let issued = Int(now.timeIntervalSince1970.rounded(.down)) - Self.backdate
    let header: JSON = ["alg": "RS256", "typ": "JWT", "kid": .string(account.privateKeyId)]
    let claims: JSON = [
      "iss": .string(account.clientEmail), "scope": .string(scopes), "aud": .string(account.tokenURI),
      "iat": .int(issued), "exp": .int(issued + Self.lifetime),
    ]
    let input = Self.base64URL(header.bytes) + "." + Self.base64URL(claims.bytes)
    let signature: _RSA.Signing.RSASignature
    do {
      signature = try key.signature(for: Array(input.utf8), padding: .insecurePKCS1v1_5)
    } catch {
      throw AuthError(
        .configError, message: "Could not sign with the private key of \(account.clientEmail) (\(account.path)).")
    }
    return input + "." + Self.base64URL(Array(signature.rawRepresentation))
  }

  static func base64URL(_ bytes: [UInt8]) -> String {
    Base64.encodeURL(bytes)
  }
}
