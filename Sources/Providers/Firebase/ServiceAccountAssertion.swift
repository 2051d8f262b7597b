import AuthCore
import CryptoExtras
import Foundation
import JSONKit

/// The signed JWT a service account presents to Google's token endpoint (OAuth 2.0 JWT-bearer
/// grant, RFC 7523): RS256 over `header.claims`, `kid` = the key's id, valid for one hour.
struct ServiceAccountAssertion {
  static let scopes = "https://www.googleapis.com/auth/identitytoolkit https://www.googleapis.com/auth/cloud-platform"
  static let lifetime = 3600

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
        hint: "Download the key again: Firebase console › Project settings › Service accounts › Generate new private key.")
    }
  }

  /// `header.claims.signature`, issued at `now`.
  func signed(now: Date) throws -> String {
    let issued = Int(now.timeIntervalSince1970.rounded(.down))
    let header: JSON = ["alg": "RS256", "typ": "JWT", "kid": .string(account.privateKeyId)]
    let claims: JSON = [
      "iss": .string(account.clientEmail), "scope": .string(Self.scopes), "aud": .string(account.tokenURI),
      "iat": .int(issued), "exp": .int(issued + Self.lifetime),
    ]
    let input = Self.base64URL(header.bytes) + "." + Self.base64URL(claims.bytes)
    let signature: _RSA.Signing.RSASignature
    do {
      signature = try key.signature(for: Array(input.utf8), padding: .insecurePKCS1v1_5)
    } catch {
      throw AuthError(.configError, message: "Could not sign with the private key of \(account.clientEmail) (\(account.path)).")
    }
    return input + "." + Self.base64URL(Array(signature.rawRepresentation))
  }

  static func base64URL(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }
}
