import Essentials
import JSONKit

/// A Firebase project's password hash parameters: the v2 project config's `signIn.hashConfig`, and
/// what `user import --hash-config FILE` reads (`{"algorithm":"SCRYPT","signerKey":…,
/// "saltSeparator":…,"rounds":8,"memoryCost":14}`). Keys are kept in standard base64.
///
/// `algorithm` may also be one of the kinds `accounts:batchCreate` takes from other systems
/// (HMAC_*, MD5, SHA*, PBKDF_SHA1, PBKDF2_SHA256, STANDARD_SCRYPT) with the parameters each needs:
/// `signerKey` (HMAC), `rounds` (digests, PBKDF), `memoryCost`, `blockSize`, `parallelization`,
/// `dkLen` (STANDARD_SCRYPT), and optionally `passwordHashOrder`.
package struct FirebaseHashConfig: Sendable, Hashable {
  package var algorithm = "SCRYPT"
  package var signerKey: String
  package var saltSeparator: String
  package var rounds: Int
  package var memoryCost: Int
  package var blockSize = 0
  package var parallelization = 0
  package var dkLen = 0
  /// SALT_AND_PASSWORD or PASSWORD_AND_SALT; nil: the kind's own order.
  package var order: String?

  package static let otherAlgorithms = [
    "HMAC_SHA512", "HMAC_SHA256", "HMAC_SHA1", "HMAC_MD5", "MD5", "SHA1", "SHA256", "SHA512", "PBKDF_SHA1",
    "PBKDF2_SHA256", "STANDARD_SCRYPT",
  ]

  package init(signerKey: String, saltSeparator: String, rounds: Int, memoryCost: Int) {
    self.signerKey = signerKey
    self.saltSeparator = saltSeparator
    self.rounds = rounds
    self.memoryCost = memoryCost
  }

  /// Firebase's own modified scrypt (what Supabase takes as `$fbscrypt$`).
  package var isFirebaseScrypt: Bool { algorithm == "SCRYPT" }

  /// Reads the config object (or a v2 config with it under `signIn.hashConfig`).
  package init(json: JSON) throws {
    let object = json["signIn"]?["hashConfig"] ?? json
    let algorithm = object["algorithm"]?.string ?? object["hashAlgorithm"]?.string ?? "SCRYPT"
    guard algorithm == "SCRYPT" || Self.otherAlgorithms.contains(algorithm) else {
      throw PortableAccountError(
        "the hash config's algorithm is \(algorithm); known: SCRYPT, BCRYPT (needs no config), "
          + Self.otherAlgorithms.joined(separator: ", "))
    }
    let key = object["signerKey"]?.string.flatMap(PasswordHashString.standardBase64) ?? ""
    let number = { (name: String) in object[name]?.int }
    self.init(
      signerKey: key,
      saltSeparator: object["saltSeparator"]?.string.flatMap(PasswordHashString.standardBase64) ?? "",
      rounds: number("rounds") ?? 0, memoryCost: number("memoryCost") ?? number("cpuMemCost") ?? 0)
    self.algorithm = algorithm
    blockSize = number("blockSize") ?? 0
    parallelization = number("parallelization") ?? 0
    dkLen = number("dkLen") ?? number("derivedKeyLength") ?? 0
    order = object["passwordHashOrder"]?.string.flatMap {
      ["SALT_AND_PASSWORD", "PASSWORD_AND_SALT"].contains($0) ? $0 : nil
    }
    try check()
  }

  private func check() throws {
    if algorithm == "SCRYPT" || algorithm.hasPrefix("HMAC_") {
      guard !signerKey.isEmpty else { throw PortableAccountError("the hash config has no signerKey (base64)") }
    }
    switch algorithm {
    case "SCRYPT":
      guard rounds > 0, memoryCost > 0 else {
        throw PortableAccountError("the hash config needs rounds and memoryCost (positive numbers)")
      }
    case "MD5", "SHA1", "SHA256", "SHA512", "PBKDF_SHA1", "PBKDF2_SHA256":
      guard rounds >= 0 else { throw PortableAccountError("the hash config needs rounds (a number)") }
    case "STANDARD_SCRYPT":
      guard memoryCost > 0, blockSize > 0, parallelization > 0, dkLen > 0 else {
        throw PortableAccountError(
          "STANDARD_SCRYPT needs memoryCost, blockSize, parallelization and dkLen (positive numbers)")
      }
    default: break
    }
  }

  /// The fields of a batchCreate call for these parameters (standard base64, as the API takes it).
  package var batchCreateFields: JSONObject {
    var fields = JSONObject([("hashAlgorithm", .string(algorithm))])
    if !signerKey.isEmpty { fields["signerKey"] = .string(signerKey) }
    if !saltSeparator.isEmpty { fields["saltSeparator"] = .string(saltSeparator) }
    if algorithm != "STANDARD_SCRYPT", !algorithm.hasPrefix("HMAC_") { fields["rounds"] = .int(rounds) }
    if algorithm == "SCRYPT" { fields["memoryCost"] = .int(memoryCost) }
    if algorithm == "STANDARD_SCRYPT" {
      fields["cpuMemCost"] = .int(memoryCost)
      fields["blockSize"] = .int(blockSize)
      fields["parallelization"] = .int(parallelization)
      fields["dkLen"] = .int(dkLen)
    }
    if let order { fields["passwordHashOrder"] = .string(order) }
    return fields
  }
}

/// The hash strings of the portable record (`password_hash`) and what each backend's import takes.
package enum PasswordHashString {
  package enum Kind: Equatable, Sendable {
    case bcrypt
    /// Firebase's modified scrypt: the parameters, the salt and the hash (standard base64).
    case firebaseScrypt(FirebaseHashConfig, salt: String, hash: String)
    /// Another kind Firebase imports (`$fbimport$…`): GoTrue cannot check it.
    case firebaseImport(FirebaseHashConfig, salt: String, hash: String)
    case argon2
    case unknown
  }

  package static func kind(of text: String) -> Kind {
    if text.utf8.count == 60, text.hasPrefix("$2a$") || text.hasPrefix("$2b$") || text.hasPrefix("$2y$") {
      return .bcrypt
    }
    if text.hasPrefix("$argon2i$") || text.hasPrefix("$argon2id$") { return .argon2 }
    if text.hasPrefix("$fbscrypt$") { return parseFirebaseScrypt(text) ?? .unknown }
    if text.hasPrefix(firebaseImportPrefix) { return parseFirebaseImport(text) ?? .unknown }
    return .unknown
  }

  static let firebaseImportPrefix = "$fbimport$"

  /// A hash whose text names its own kind and parameters (bcrypt, argon2): read as it is from any
  /// file, never as Firebase's scrypt.
  package static func identifiesItself(_ text: String) -> Bool {
    switch kind(of: text) {
    case .bcrypt, .argon2: return true
    case .firebaseScrypt, .firebaseImport, .unknown: return false
    }
  }

  /// The hash of a record read with `--hash-config` naming a kind other than SCRYPT, kept with its
  /// parameters: `$fbimport$<the config as JSON, base64>$<salt>$<hash>` (standard base64).
  package static func firebaseImport(_ config: FirebaseHashConfig, salt: String, hash: String) -> String? {
    if config.isFirebaseScrypt { return firebaseScrypt(config, salt: salt, hash: hash) }
    guard let salt = standardBase64(salt), let hash = standardBase64(hash), !hash.isEmpty else { return nil }
    var fields = config.batchCreateFields
    fields["algorithm"] = fields["hashAlgorithm"]
    fields["hashAlgorithm"] = nil
    return firebaseImportPrefix + Base64.encode(JSON.object(fields).bytes) + "$\(salt)$\(hash)"
  }

  private static func parseFirebaseImport(_ text: String) -> Kind? {
    let sections = text.dropFirst(firebaseImportPrefix.count).split(separator: "$", omittingEmptySubsequences: false)
    guard sections.count == 3, let bytes = bytes(String(sections[0])), let json = try? JSON.parse(bytes: bytes),
      let config = try? FirebaseHashConfig(json: json), !config.isFirebaseScrypt,
      let salt = standardBase64(String(sections[1])), let hash = standardBase64(String(sections[2])), !hash.isEmpty
    else { return nil }
    return .firebaseImport(config, salt: salt, hash: hash)
  }

  /// `$fbscrypt$v=1,n=<memoryCost>,r=<rounds>,p=1,ss=<base64>,sk=<base64>$<salt>$<hash>`: GoTrue
  /// reads `n` as log2 of scrypt's N, which is Firebase's memoryCost.
  package static func firebaseScrypt(_ config: FirebaseHashConfig, salt: String, hash: String) -> String? {
    guard let salt = standardBase64(salt), let hash = standardBase64(hash), !hash.isEmpty else { return nil }
    return
      "$fbscrypt$v=1,n=\(config.memoryCost),r=\(config.rounds),p=1,ss=\(config.saltSeparator),sk=\(config.signerKey)$\(salt)$\(hash)"
  }

  private static func parseFirebaseScrypt(_ text: String) -> Kind? {
    // Read as bytes: an import checks this string for every account.
    let sections = Array(text.utf8.dropFirst("$fbscrypt$".utf8.count)).split(
      separator: UInt8(ascii: "$"), omittingEmptySubsequences: false)
    guard sections.count == 3, let config = scryptParameters(sections[0]),
      let salt = standardBase64(String(decoding: sections[1], as: UTF8.self)),
      let hash = standardBase64(String(decoding: sections[2], as: UTF8.self)), !hash.isEmpty
    else { return nil }
    return .firebaseScrypt(config, salt: salt, hash: hash)
  }

  /// The last parameter list read: a file's accounts share their project's.
  private static let lastParameters = Guarded<(text: [UInt8], config: FirebaseHashConfig)?>(nil)

  private static func scryptParameters(_ text: ArraySlice<UInt8>) -> FirebaseHashConfig? {
    if let last = lastParameters.update({ $0 }), last.text.elementsEqual(text) { return last.config }
    var fields: [String: String] = [:]
    for field in text.split(separator: UInt8(ascii: ",")) {
      guard let equals = field.firstIndex(of: UInt8(ascii: "=")) else { return nil }
      fields[String(decoding: field[..<equals], as: UTF8.self)] = String(
        decoding: field[(equals + 1)...], as: UTF8.self)
    }
    guard fields["v"] == "1", fields["p"] == "1", let rounds = fields["r"].flatMap({ Int($0) }),
      let memoryCost = fields["n"].flatMap({ Int($0) }).flatMap(memoryCost), rounds > 0,
      let key = fields["sk"].flatMap(standardBase64), !key.isEmpty,
      let separator = standardBase64(fields["ss"] ?? "")
    else { return nil }
    let config = FirebaseHashConfig(signerKey: key, saltSeparator: separator, rounds: rounds, memoryCost: memoryCost)
    lastParameters.update { $0 = (Array(text), config) }
    return config
  }

  /// `n` as GoTrue reads it (log2 of scrypt's N, 1…31); scrypt's N itself (a power of two above
  /// 31, as some tools write it) is taken as its log2.
  static func memoryCost(_ n: Int) -> Int? {
    if (1...31).contains(n) { return n }
    guard n > 31, n & (n - 1) == 0 else { return nil }
    return n.trailingZeroBitCount
  }

  /// Base64 in either alphabet, padded or not, re-encoded as standard padded base64 (what GoTrue
  /// decodes); nil when it is not base64.
  package static func standardBase64(_ text: String) -> String? {
    if isStandardBase64(text.utf8) { return text }
    return bytes(text).map { Base64.encode($0) }
  }

  /// True when `text` is already standard padded base64 exactly as it would be re-encoded (the
  /// usual case, which then needs no decoding): the standard alphabet, whole quads, at most two
  /// `=` at the end, and no bits set past the last byte.
  static func isStandardBase64(_ text: String.UTF8View) -> Bool {
    if let answer = text.withContiguousStorageIfAvailable(isStandardBase64) { return answer }
    return Array(text).withUnsafeBufferPointer(isStandardBase64)
  }

  private static func isStandardBase64(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard text.count % 4 == 0 else { return false }
    var padding = 0
    var last: UInt8 = 0
    for byte in text {
      if byte == UInt8(ascii: "=") {
        padding += 1
        continue
      }
      guard padding == 0, let value = base64Value(byte) else { return false }
      last = value
    }
    switch padding {
    case 0: return true
    case 1: return text.count > 1 && last & 0b11 == 0
    case 2: return text.count > 2 && last & 0b1111 == 0
    default: return false
    }
  }

  private static func base64Value(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
    case UInt8(ascii: "+"): return 62
    case UInt8(ascii: "/"): return 63
    default: return nil
    }
  }

  /// The bytes of base64 in either alphabet, padded or not.
  package static func bytes(_ text: String) -> [UInt8]? {
    Base64.decode(text)
  }
}
