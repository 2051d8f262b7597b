import Crypto
import CryptoExtras
import Essentials

/// Firebase Authentication's modified scrypt (the algorithm of the public firebase/scrypt tool):
/// scrypt(password, salt ‖ saltSeparator, N = 2^memoryCost, r = rounds, p = 1), whose first 32
/// bytes are an AES-256 key; the hash is the project's signer key encrypted with it in CTR mode
/// from a zero counter.
package struct FirebaseScryptParameters: Equatable, Sendable {
  package var signerKey: [UInt8]
  package var saltSeparator: [UInt8]
  package var rounds: Int
  /// log2 of scrypt's N.
  package var memoryCost: Int

  package init(signerKey: [UInt8], saltSeparator: [UInt8], rounds: Int, memoryCost: Int) {
    self.signerKey = signerKey
    self.saltSeparator = saltSeparator
    self.rounds = rounds
    self.memoryCost = memoryCost
  }

  /// The emulator's default cost: rounds 4, memoryCost 8 (about half a millisecond a hash, so
  /// password sign-in stays above 1,000/s). Production projects use rounds 8, memoryCost 14.
  package static let emulatorRounds = 4
  package static let emulatorMemoryCost = 8

  /// A new project's parameters: a random 64-byte signer key and a random one-byte separator.
  package static func random(rounds: Int = emulatorRounds, memoryCost: Int = emulatorMemoryCost)
    -> FirebaseScryptParameters
  {
    var generator = PooledRandom()
    let key = (0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) }
    return FirebaseScryptParameters(
      signerKey: key, saltSeparator: [UInt8.random(in: 0...255, using: &generator)],
      rounds: rounds, memoryCost: memoryCost)
  }

  /// Parameters this emulator computes: scrypt's memory (128·r·2^memoryCost bytes) at most 256 MiB,
  /// and sizes BoringSSL takes. Anything else never matches.
  var isComputable: Bool {
    (1...20).contains(memoryCost) && (1...16).contains(rounds) && !signerKey.isEmpty
      && 128 * rounds << memoryCost <= 1 << 28
  }

  /// The hash of `password` with `salt`, or nil for parameters this emulator does not compute.
  package func hash(_ password: String, salt: [UInt8]) -> [UInt8]? {
    let passwordBytes = Array(password.utf8)
    let saltBytes = salt + saltSeparator
    guard isComputable, !passwordBytes.isEmpty, !saltBytes.isEmpty,
      let key = try? KDF.Scrypt.deriveKey(
        from: passwordBytes, salt: saltBytes, outputByteCount: 32,
        rounds: 1 << memoryCost, blockSize: rounds, parallelism: 1),
      let nonce = try? AES._CTR.Nonce(nonceBytes: [UInt8](repeating: 0, count: 16)),
      let encrypted = try? AES._CTR.encrypt(signerKey, using: key, nonce: nonce)
    else { return nil }
    return Array(encrypted)
  }

  /// A new random 8-byte salt (as production's) and the hash with it.
  package func newHash(_ password: String) -> (salt: [UInt8], hash: [UInt8])? {
    var generator = PooledRandom()
    let salt = (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }
    return hash(password, salt: salt).map { (salt, $0) }
  }
}

/// A stored password hash in the string GoTrue's `password_hash` takes:
/// `$fbscrypt$v=1,n=<memoryCost>,r=<rounds>,p=1,ss=<base64>,sk=<base64>$<base64 salt>$<base64 hash>`.
/// GoTrue reads `n` as log2 of scrypt's N (its tests use `n=14`).
package struct FirebaseScryptHash: Equatable, Sendable {
  package var parameters: FirebaseScryptParameters
  package var salt: [UInt8]
  package var hash: [UInt8]

  package init(parameters: FirebaseScryptParameters, salt: [UInt8], hash: [UInt8]) {
    self.parameters = parameters
    self.salt = salt
    self.hash = hash
  }

  package static let prefix = "$fbscrypt"

  package var encoded: String {
    "$fbscrypt$v=1,n=\(parameters.memoryCost),r=\(parameters.rounds),p=1,ss="
      + Base64.encode(parameters.saltSeparator) + ",sk=" + Base64.encode(parameters.signerKey)
      + "$" + Base64.encode(salt) + "$" + Base64.encode(hash)
  }

  /// GoTrue's `ParseFirebaseScryptHash`: the reason it refuses a string, or the parsed hash.
  package static func parse(_ text: String) -> Result<FirebaseScryptHash, FirebaseScryptFormatError> {
    guard text.hasPrefix("$fbscrypt$") else { return .failure(.format) }
    // Split as bytes: an import checks one of these for every account.
    let sections = Array(text.utf8.dropFirst("$fbscrypt$".utf8.count)).split(
      separator: UInt8(ascii: "$"), maxSplits: 2, omittingEmptySubsequences: false)
    guard sections.count == 3, !sections[1].isEmpty, !sections[2].isEmpty else { return .failure(.format) }
    var fields: [String: String] = [:]
    var order: [String] = []
    for field in sections[0].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
      guard let equals = field.firstIndex(of: UInt8(ascii: "=")) else { return .failure(.format) }
      let name = String(decoding: field[..<equals], as: UTF8.self)
      order.append(name)
      fields[name] = String(decoding: field[(equals + 1)...], as: UTF8.self)
    }
    // The parameter list is `v,n,r,p` then optional `ss`, then optional `sk`, in that order.
    let allowed = [
      ["v", "n", "r", "p"], ["v", "n", "r", "p", "ss"], ["v", "n", "r", "p", "sk"], ["v", "n", "r", "p", "ss", "sk"],
    ]
    guard allowed.contains(order) else { return .failure(.format) }
    let digits: (String) -> Bool = { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    guard let v = fields["v"], let n = fields["n"], let r = fields["r"], let p = fields["p"],
      digits(v), digits(n), digits(r), digits(p), fields["ss"].map({ !$0.isEmpty }) ?? true,
      fields["sk"].map({ !$0.isEmpty }) ?? true
    else { return .failure(.format) }
    guard v == "1" else { return .failure(.version(v)) }
    guard let memoryCost = UInt32(n) else { return .failure(.parameter("n", n)) }
    guard memoryCost != 0 else { return .failure(.zero("n")) }
    guard let rounds = UInt64(r) else { return .failure(.parameter("r", r)) }
    guard rounds != 0 else { return .failure(.zero("r")) }
    guard let threads = UInt8(p) else { return .failure(.parameter("p", p)) }
    guard threads != 0 else { return .failure(.zero("p")) }
    guard let hash = Base64.decode(String(decoding: sections[2], as: UTF8.self)) else {
      return .failure(.base64("hash"))
    }
    guard let salt = Base64.decode(String(decoding: sections[1], as: UTF8.self)) else {
      return .failure(.base64("salt"))
    }
    guard let signerKey = Base64.decode(fields["sk"] ?? "") else { return .failure(.base64("sk")) }
    guard let separator = Base64.decode(fields["ss"] ?? "") else { return .failure(.base64("ss")) }
    // p other than 1 is accepted as GoTrue accepts it; it is not Firebase's and never matches here.
    let parameters = FirebaseScryptParameters(
      signerKey: Array(signerKey), saltSeparator: Array(separator),
      rounds: threads == 1 ? Int(clamping: rounds) : 0, memoryCost: Int(memoryCost))
    return .success(FirebaseScryptHash(parameters: parameters, salt: Array(salt), hash: Array(hash)))
  }

  /// Constant-time comparison of the password's hash with the stored one.
  package func matches(_ password: String) -> Bool {
    guard let computed = parameters.hash(password, salt: salt) else { return false }
    return ConstantTime.equal(computed, hash)
  }
}

/// Why GoTrue refuses a `$fbscrypt$` string (its `crypto:` messages).
package enum FirebaseScryptFormatError: Error, Equatable, Sendable {
  case format, version(String), parameter(String, String), zero(String), base64(String)

  package var message: String {
    switch self {
    case .format: return "crypto: incorrect scrypt hash format"
    case .version(let v):
      return "crypto: Firebase scrypt hash uses unsupported version \"\(v)\" only version 1 is supported"
    case .parameter(let name, let value):
      return "crypto: Firebase scrypt hash has invalid \(name) parameter \"\(value)\""
    case .zero(let name): return "crypto: Firebase scrypt hash has invalid \(name)=0"
    case .base64(let part): return "crypto: Firebase scrypt hash has invalid base64 in the \(part) section"
    }
  }
}

/// What a password check against a stored hash found.
package enum PasswordCheck: Equatable, Sendable {
  case match, mismatch
  /// A hash kind this emulator stores but cannot compute here (argon2 without libargon2).
  case unverifiable
  /// A hash whose parameters the key derivation refuses (a `$fbscrypt$` cost no scrypt takes):
  /// GoTrue's `must(scrypt.Key(…))` panics there, and its recoverer answers 500.
  case failed
}

/// Stored hashes of either side: bcrypt (`$2a$`/`$2b$`/`$2y$`, as `PasswordHasher` makes them),
/// Firebase's modified scrypt (`$fbscrypt$…`), the other kinds Firebase imports (`$fbimport$…`,
/// `ImportedPasswordHash`), argon2 (`$argon2i$`/`$argon2id$`, through libargon2).
package enum StoredPasswordHash {
  package static func check(_ password: String, against stored: String) -> PasswordCheck {
    if stored.hasPrefix(FirebaseScryptHash.prefix) {
      guard case .success(let hash) = FirebaseScryptHash.parse(stored) else { return .mismatch }
      guard hash.parameters.isComputable else { return .failed }
      return hash.matches(password) ? .match : .mismatch
    }
    if stored.hasPrefix(ImportedPasswordHash.prefix) {
      return ImportedPasswordHash.parse(stored)?.matches(password) == true ? .match : .mismatch
    }
    if stored.hasPrefix("$argon2") { return Argon2.check(password, against: stored) }
    // $2b$ and $2y$ are the same algorithm as $2a$ for these inputs (Go's bcrypt takes all three).
    var bcrypt = stored
    if stored.hasPrefix("$2b$") || stored.hasPrefix("$2y$") { bcrypt = "$2a$" + stored.dropFirst(4) }
    return PasswordHasher.verify(password, hash: bcrypt) ? .match : .mismatch
  }
}
