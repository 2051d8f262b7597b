import Essentials
import JSONKit

/// What `user export` needs of the project's hash parameters (`FirebaseHashConfig`).
extension FirebaseHashConfig {
  /// The admin v2 project config's `signIn.hashConfig`, a tenant's `hashConfig`, or the bare object
  /// (a `--hash-config` file); nil when there is no complete SCRYPT config (production leaves the
  /// keys out for a caller that may not read them).
  package static func from(projectConfig json: JSON) -> FirebaseHashConfig? {
    let object = json["signIn"]?["hashConfig"] ?? json["hashConfig"] ?? json
    return (try? FirebaseHashConfig(json: object)).flatMap { $0.isFirebaseScrypt ? $0 : nil }
  }

  package var json: JSON {
    [
      "algorithm": "SCRYPT", "signerKey": .string(signerKey), "saltSeparator": .string(saltSeparator),
      "rounds": .int(rounds), "memoryCost": .int(memoryCost),
    ]
  }

  /// GoTrue's `$fbscrypt$` string for one account's hash and salt (base64 of either alphabet, as
  /// Identity Toolkit returns them): `n` is the memory cost as GoTrue reads it — the power of two
  /// (`n=14` is 2^14), `r` the rounds, `p=1`; everything in standard base64.
  package func passwordHash(hash: String, salt: String) -> String {
    "$fbscrypt$v=1,n=\(memoryCost),r=\(rounds),p=1,ss=\(Base64.standard(saltSeparator)),sk=\(Base64.standard(signerKey))$"
      + Base64.standard(salt) + "$" + Base64.standard(hash)
  }
}
