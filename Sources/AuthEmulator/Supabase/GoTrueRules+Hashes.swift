import Essentials

/// The `password_hash` strings `POST /admin/users` takes (GoTrue `internal/crypto/password.go`):
/// argon2 (`$argon2i$`/`$argon2id$`, version 19, m ≤ 1 GiB, t ≤ 20, p ≤ 16, no keyid or data,
/// non-empty unpadded base64 salt and hash), Firebase's modified scrypt (`$fbscrypt$…`,
/// `FirebaseScryptHash.parse`), otherwise bcrypt.
extension GoTrueRules {
  static func isAcceptedPasswordHash(_ text: String) -> Bool {
    if text.hasPrefix("$argon2") { return isArgon2Hash(text) }
    if text.hasPrefix(FirebaseScryptHash.prefix) {
      if case .success = FirebaseScryptHash.parse(text) { return true }
      return false
    }
    return isBcryptHash(text)
  }

  /// `$argon2id$v=19$m=65536,t=3,p=4$<salt>$<hash>` as GoTrue's `ParseArgon2Hash` accepts it.
  static func isArgon2Hash(_ text: String) -> Bool {
    let sections = text.split(separator: "$", omittingEmptySubsequences: false)
    // "", alg, v=…, m=…,t=…,p=…[,keyid=…][,data=…], salt, hash
    guard sections.count == 6, sections[0].isEmpty, sections[1] == "argon2i" || sections[1] == "argon2id",
      sections[2] == "v=19"
    else { return false }
    var values: [String: String] = [:]
    var names: [String] = []
    for field in sections[3].split(separator: ",", omittingEmptySubsequences: false) {
      guard let equals = field.firstIndex(of: "=") else { return false }
      names.append(String(field[..<equals]))
      values[String(field[..<equals])] = String(field[field.index(after: equals)...])
    }
    // keyid and data are refused by GoTrue.
    guard names == ["m", "t", "p"], let m = values["m"].flatMap({ UInt32($0) }),
      let t = values["t"].flatMap({ UInt32($0) }),
      let p = values["p"].flatMap({ UInt8($0) }), m <= 1024 * 1024, t <= 20, p <= 16
    else { return false }
    return isRawBase64(sections[4]) && isRawBase64(sections[5])
  }

  /// Non-empty standard base64 without padding (Go's `RawStdEncoding`).
  private static func isRawBase64(_ text: Substring) -> Bool {
    guard !text.isEmpty, text.count % 4 != 1 else { return false }
    return text.utf8.allSatisfy { byte in
      (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2B
        || byte == 0x2F
    }
  }
}
