import Essentials
import JSONKit

/// The password hashes of one `accounts:batchCreate` call (`UploadAccountRequest`): `hashAlgorithm`
/// and its parameters apply to every entry's `passwordHash` / `salt` (base64, either alphabet, as
/// the Admin SDKs send URL-safe base64). Stored as the strings `StoredPasswordHash` checks.
struct FirebaseImportHash {
  enum Algorithm { case none, bcrypt, scrypt(FirebaseScryptParameters) }
  let algorithm: Algorithm

  init(_ body: FirebaseBody, entries: [JSON]) throws {
    let hashed = entries.contains { $0["passwordHash"]?.string?.isEmpty == false && $0["rawPassword"] == nil }
    let name = body.truthy("hashAlgorithm")
    guard hashed else {
      algorithm = .none
      return
    }
    switch name {
    case nil:
      throw FirebaseError.bad("MISSING_HASH_ALGORITHM")
    case "BCRYPT":
      algorithm = .bcrypt
    case "SCRYPT":
      guard let key = body.truthy("signerKey").flatMap(Base64URL.decode), !key.isEmpty else {
        throw FirebaseError.bad("MISSING_SIGNER_KEY")
      }
      let separator = body.truthy("saltSeparator").flatMap(Base64URL.decode) ?? []
      let rounds = body["rounds"].flatMap(FirebaseAPI.integer) ?? 0
      let memoryCost = body["memoryCost"].flatMap(FirebaseAPI.integer) ?? 0
      try require((1...8).contains(rounds), "INVALID_ROUNDS")
      try require((1...14).contains(memoryCost), "INVALID_MEMORY_COST")
      algorithm = .scrypt(
        FirebaseScryptParameters(
          signerKey: key, saltSeparator: separator, rounds: rounds,
          memoryCost: memoryCost))
    case let other?:
      throw FirebaseError.bad(
        "((hashAlgorithm \(other) is not supported by the authsh emulator: use SCRYPT or BCRYPT))")
    }
  }

  /// The stored form of an entry's `passwordHash`, nil without one; an entry error for a bad one.
  func storedHash(_ entry: JSON) -> Result<String?, FirebaseError> {
    guard let text = entry["passwordHash"]?.string, !text.isEmpty else { return .success(nil) }
    guard let hash = Base64URL.decode(text), !hash.isEmpty else { return .failure(.bad("Invalid password hash.")) }
    switch algorithm {
    case .none:
      return .success(nil)
    case .bcrypt:
      let string = String(decoding: hash, as: UTF8.self)
      guard GoTrueRules.isBcryptHash(string) else { return .failure(.bad("Invalid password hash.")) }
      return .success(string)
    case .scrypt(let parameters):
      let salt = entry["salt"]?.string.flatMap(Base64URL.decode) ?? []
      return .success(FirebaseScryptHash(parameters: parameters, salt: salt, hash: hash).encoded)
    }
  }
}
