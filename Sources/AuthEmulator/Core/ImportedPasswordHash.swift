import Crypto
import CryptoExtras
import Essentials

/// A password hash imported into Firebase with one of the kinds `accounts:batchCreate` takes besides
/// its own scrypt and bcrypt: HMAC_MD5/SHA1/SHA256/SHA512 (with `signerKey`), MD5, SHA1, SHA256,
/// SHA512 (with `rounds`), PBKDF_SHA1 and PBKDF2_SHA256 (with `rounds`), and STANDARD_SCRYPT
/// (`cpuMemCost`, `blockSize`, `parallelization`, `dkLen`). Checked at sign-in with the formulas
/// the Admin SDKs' integration tests sign in with against production (firebase-admin-node
/// `test/integration/auth.spec.ts`):
/// - HMAC: HMAC(key, password ‖ salt);
/// - MD5/SHA*: H(salt ‖ password), then H applied again until `rounds` applications (0 counts as 1);
/// - PBKDF*: PBKDF2(password, salt, rounds) with the stored hash's length;
/// - STANDARD_SCRYPT: scrypt(password, salt, N = cpuMemCost, r = blockSize, p = parallelization, dkLen).
/// `passwordHashOrder` (SALT_AND_PASSWORD / PASSWORD_AND_SALT) overrides the order of the first two.
///
/// Stored as `$fbimport$alg=…,key=…,rounds=…,order=…,n=…,r=…,p=…,dk=…$<salt>$<hash>` (base64).
package struct ImportedPasswordHash: Equatable, Sendable {
  package enum Algorithm: String, CaseIterable, Sendable {
    case hmacMD5 = "HMAC_MD5", hmacSHA1 = "HMAC_SHA1", hmacSHA256 = "HMAC_SHA256", hmacSHA512 = "HMAC_SHA512"
    case md5 = "MD5", sha1 = "SHA1", sha256 = "SHA256", sha512 = "SHA512"
    case pbkdfSHA1 = "PBKDF_SHA1", pbkdf2SHA256 = "PBKDF2_SHA256"
    case standardScrypt = "STANDARD_SCRYPT"

    var isHMAC: Bool { rawValue.hasPrefix("HMAC_") }
    var isPBKDF: Bool { self == .pbkdfSHA1 || self == .pbkdf2SHA256 }
    var isDigest: Bool { [.md5, .sha1, .sha256, .sha512].contains(self) }
  }

  package enum Order: String, Sendable { case saltFirst = "SALT_AND_PASSWORD", passwordFirst = "PASSWORD_AND_SALT" }

  package var algorithm: Algorithm
  package var key: [UInt8] = []
  package var rounds = 0
  /// nil: the kind's own order (HMAC password first, digests salt first).
  package var order: Order?
  /// STANDARD_SCRYPT's N, r, p and derived key length.
  package var cpuMemCost = 0
  package var blockSize = 0
  package var parallelization = 0
  package var dkLen = 0
  package var salt: [UInt8] = []
  package var hash: [UInt8] = []

  package init(algorithm: Algorithm) { self.algorithm = algorithm }

  package static let prefix = "$fbimport$"
  /// The largest cost computed at a sign-in: more rounds never match (a stored hash cannot make
  /// the emulator spin), and scrypt memory stays under 256 MiB.
  static let maximumRounds = 120_000

  package var encoded: String {
    var fields = ["alg=\(algorithm.rawValue)"]
    if !key.isEmpty { fields.append("key=" + Base64.encode(key)) }
    if rounds != 0 { fields.append("rounds=\(rounds)") }
    if let order { fields.append("order=\(order.rawValue)") }
    if algorithm == .standardScrypt {
      fields += ["n=\(cpuMemCost)", "r=\(blockSize)", "p=\(parallelization)", "dk=\(dkLen)"]
    }
    return Self.prefix + fields.joined(separator: ",") + "$" + Base64.encode(salt) + "$"
      + Base64.encode(hash)
  }

  package static func parse(_ text: String) -> ImportedPasswordHash? {
    guard text.hasPrefix(prefix) else { return nil }
    let sections = text.dropFirst(prefix.count).split(separator: "$", omittingEmptySubsequences: false)
    guard sections.count == 3, let salt = Base64.decode(String(sections[1])),
      let hash = Base64.decode(String(sections[2])), !hash.isEmpty
    else { return nil }
    var fields: [String: String] = [:]
    for field in sections[0].split(separator: ",") {
      guard let equals = field.firstIndex(of: "=") else { return nil }
      fields[String(field[..<equals])] = String(field[field.index(after: equals)...])
    }
    guard let algorithm = fields["alg"].flatMap(Algorithm.init(rawValue:)) else { return nil }
    var parsed = ImportedPasswordHash(algorithm: algorithm)
    parsed.key = fields["key"].flatMap { Base64.decode($0) }.map(Array.init) ?? []
    parsed.rounds = fields["rounds"].flatMap { Int($0) } ?? 0
    parsed.order = fields["order"].flatMap(Order.init(rawValue:))
    parsed.cpuMemCost = fields["n"].flatMap { Int($0) } ?? 0
    parsed.blockSize = fields["r"].flatMap { Int($0) } ?? 0
    parsed.parallelization = fields["p"].flatMap { Int($0) } ?? 0
    parsed.dkLen = fields["dk"].flatMap { Int($0) } ?? 0
    parsed.salt = Array(salt)
    parsed.hash = Array(hash)
    return parsed
  }

  /// Whether `password` hashes to the stored hash (constant-time comparison).
  package func matches(_ password: String) -> Bool {
    guard let computed = compute(Array(password.utf8)) else { return false }
    return ConstantTime.equal(computed, hash)
  }

  func compute(_ password: [UInt8]) -> [UInt8]? {
    let saltFirst = order.map { $0 == .saltFirst } ?? !algorithm.isHMAC
    let input = saltFirst ? salt + password : password + salt
    switch algorithm {
    case .hmacMD5: return mac(Insecure.MD5.self, input)
    case .hmacSHA1: return mac(Insecure.SHA1.self, input)
    case .hmacSHA256: return mac(SHA256.self, input)
    case .hmacSHA512: return mac(SHA512.self, input)
    case .md5: return digest(Insecure.MD5.self, input)
    case .sha1: return digest(Insecure.SHA1.self, input)
    case .sha256: return digest(SHA256.self, input)
    case .sha512: return digest(SHA512.self, input)
    case .pbkdfSHA1, .pbkdf2SHA256:
      guard (1...Self.maximumRounds).contains(rounds), (1...1024).contains(hash.count) else { return nil }
      let function: KDF.Insecure.PBKDF2.HashFunction = algorithm == .pbkdfSHA1 ? .insecureSHA1 : .sha256
      let key = try? KDF.Insecure.PBKDF2.deriveKey(
        from: password, salt: salt, using: function, outputByteCount: hash.count, unsafeUncheckedRounds: rounds)
      return key?.withUnsafeBytes { Array($0) }
    case .standardScrypt:
      let n = cpuMemCost
      guard n > 1, n & (n - 1) == 0, (1...64).contains(blockSize), (1...64).contains(parallelization),
        (1...1024).contains(dkLen), 128 * blockSize * n <= 1 << 28, !password.isEmpty
      else { return nil }
      let key = try? KDF.Scrypt.deriveKey(
        from: password, salt: salt, outputByteCount: dkLen, rounds: n, blockSize: blockSize,
        parallelism: parallelization)
      return key?.withUnsafeBytes { Array($0) }
    }
  }

  private func mac<H: HashFunction>(_: H.Type, _ input: [UInt8]) -> [UInt8] {
    Array(HMAC<H>.authenticationCode(for: input, using: SymmetricKey(data: key)))
  }

  private func digest<H: HashFunction>(_: H.Type, _ input: [UInt8]) -> [UInt8]? {
    guard rounds <= Self.maximumRounds else { return nil }
    var value = Array(H.hash(data: input))
    for _ in 1..<max(rounds, 1) { value = Array(H.hash(data: value)) }
    return value
  }
}
