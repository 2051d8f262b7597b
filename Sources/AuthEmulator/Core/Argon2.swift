import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// argon2 password hashes (`$argon2i$…`, `$argon2id$…`) checked as GoTrue checks them
/// (`crypto/password.go`: the parameters, salt and hash length from the string), through the
/// reference implementation's `argon2_verify` in libargon2, loaded at run time (Debian:
/// libargon2-1). Without the library a hash is stored but not checked (`PasswordCheck.unverifiable`).
enum Argon2 {
  private typealias Verify = @convention(c) (UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
  private static let soname = "libargon2.so.1"
  /// `ARGON2_OK` and `ARGON2_VERIFY_MISMATCH` (argon2.h).
  private static let ok: Int32 = 0
  private static let mismatch: Int32 = -35

  private static let verifier = Mutex<Verify??>(nil)

  private static var verify: Verify? {
    verifier.withLock { loaded in
      if case .none = loaded {
        let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL)
        let symbol = handle.flatMap { dlsym($0, "argon2_verify") }
        loaded = .some(symbol.map { unsafeBitCast($0, to: Verify.self) })
      }
      return loaded ?? nil
    }
  }

  /// Whether `password` matches `encoded`; nil when it cannot be checked here (no libargon2, or
  /// a variant GoTrue does not take).
  static func check(_ password: String, against encoded: String) -> PasswordCheck {
    // GoTrue reads `$argon2i$` and `$argon2id$` only (argon2_type: Argon2_i = 1, Argon2_id = 2).
    let type: Int32
    if encoded.hasPrefix("$argon2id$") {
      type = 2
    } else if encoded.hasPrefix("$argon2i$") {
      type = 1
    } else {
      return .mismatch
    }
    guard let verify else { return .unverifiable }
    let bytes = Array(password.utf8)
    let result = encoded.withCString { text in
      bytes.withUnsafeBytes { verify(text, $0.baseAddress, bytes.count, type) }
    }
    return result == ok ? .match : .mismatch
  }
}
