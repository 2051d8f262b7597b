import Essentials
import JSONKit

/// The password hashes of one `accounts:batchCreate` call (`UploadAccountRequest`): `hashAlgorithm`
/// and its parameters apply to every entry's `passwordHash` / `salt` (base64, either alphabet, as
/// the Admin SDKs send URL-safe base64). Stored as the strings `StoredPasswordHash` checks.
struct FirebaseImportHash {
  enum Algorithm {
    case none, bcrypt
    case scrypt(FirebaseScryptParameters)
    /// Every other kind: the parameters, without salt and hash.
    case other(ImportedPasswordHash)
  }
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
      let rounds = body["rounds"].flatMap(FirebaseBatchCreateRoutes.integer) ?? 0
      let memoryCost = body["memoryCost"].flatMap(FirebaseBatchCreateRoutes.integer) ?? 0
      try require((1...8).contains(rounds), "INVALID_ROUNDS")
      try require((1...14).contains(memoryCost), "INVALID_MEMORY_COST")
      algorithm = .scrypt(
        FirebaseScryptParameters(
          signerKey: key, saltSeparator: separator, rounds: rounds,
          memoryCost: memoryCost))
    case let name?:
      guard let kind = ImportedPasswordHash.Algorithm(rawValue: name) else {
        throw FirebaseError.bad("Unsupported hash algorithm \(name)")
      }
      algorithm = .other(try Self.parameters(kind, body))
    }
  }

  /// The call's parameters for `kind`, checked as the Admin SDKs check them before sending.
  private static func parameters(_ kind: ImportedPasswordHash.Algorithm, _ body: FirebaseBody) throws
    -> ImportedPasswordHash
  {
    var hash = ImportedPasswordHash(algorithm: kind)
    let number = { (name: String) in body[name].flatMap(FirebaseBatchCreateRoutes.integer) ?? 0 }
    if kind.isHMAC {
      guard let key = body.truthy("signerKey").flatMap(Base64URL.decode), !key.isEmpty else {
        throw FirebaseError.bad("MISSING_SIGNER_KEY")
      }
      hash.key = key
    }
    hash.rounds = number("rounds")
    if kind.isDigest { try require((kind == .md5 ? 0 : 1)...8192 ~= hash.rounds, "INVALID_ROUNDS") }
    if kind.isPBKDF { try require((0...120_000).contains(hash.rounds), "INVALID_ROUNDS") }
    if kind == .standardScrypt {
      hash.cpuMemCost = number("cpuMemCost")
      hash.blockSize = number("blockSize")
      hash.parallelization = number("parallelization")
      hash.dkLen = number("dkLen")
      try require(hash.cpuMemCost > 0, "INVALID_CPU_MEM_COST")
      try require(hash.blockSize > 0, "INVALID_BLOCK_SIZE")
      try require(hash.parallelization > 0, "INVALID_PARALLELIZATION")
      try require(hash.dkLen > 0, "INVALID_DK_LEN")
    }
    switch body.truthy("passwordHashOrder") {
    case "SALT_AND_PASSWORD": hash.order = .saltFirst
    case "PASSWORD_AND_SALT": hash.order = .passwordFirst
    default: break
    }
    return hash
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
    case .other(var parameters):
      parameters.salt = entry["salt"]?.string.flatMap(Base64URL.decode) ?? []
      parameters.hash = hash
      return .success(parameters.encoded)
    }
  }
}
