import Foundation
import OneTimeCode
import Testing

@Suite("TOTP (RFC 6238)")
struct TOTPTests {
  /// RFC 6238 appendix B: the seeds are ASCII "1234567890" repeated to 20, 32 and 64 bytes.
  static let vectors: [(time: Double, sha1: String, sha256: String, sha512: String)] = [
    (59, "94287082", "46119246", "90693936"),
    (1_111_111_109, "07081804", "68084774", "25091201"),
    (1_111_111_111, "14050471", "67062674", "99943326"),
    (1_234_567_890, "89005924", "91819424", "93441116"),
    (2_000_000_000, "69279037", "90698825", "38618901"),
    (20_000_000_000, "65353130", "77737706", "47863826"),
  ]

  static func seed(_ length: Int) -> [UInt8] { Array(String(repeating: "1234567890", count: 7).utf8.prefix(length)) }

  @Test("RFC 6238 appendix B test vectors (SHA-1, SHA-256, SHA-512, 8 digits)", arguments: vectors.indices)
  func rfcVectors(_ index: Int) {
    let vector = Self.vectors[index]
    let counter = TOTP.counter(at: Date(timeIntervalSince1970: vector.time))
    #expect(TOTP.code(key: Self.seed(20), counter: counter, digits: 8, algorithm: .sha1) == vector.sha1)
    #expect(TOTP.code(key: Self.seed(32), counter: counter, digits: 8, algorithm: .sha256) == vector.sha256)
    #expect(TOTP.code(key: Self.seed(64), counter: counter, digits: 8, algorithm: .sha512) == vector.sha512)
  }

  @Test("RFC 4226 appendix D HOTP values (6 digits)")
  func hotpVectors() {
    let expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
    for (counter, code) in expected.enumerated() {
      #expect(TOTP.code(key: Self.seed(20), counter: UInt64(counter)) == code)
    }
  }

  @Test("verification takes the previous, current and next 30 s step (GoTrue's skew of 1), nothing further")
  func window() throws {
    // base32 of the RFC seed: GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ.
    let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
    let now = Date(timeIntervalSince1970: 1_111_111_111)
    let current = try #require(TOTP.code(secret: secret, at: now))
    #expect(current == "050471")
    #expect(TOTP.verify(current, secret: secret, at: now))
    #expect(TOTP.verify(try #require(TOTP.code(secret: secret, at: now - 30)), secret: secret, at: now))
    #expect(TOTP.verify(try #require(TOTP.code(secret: secret, at: now + 30)), secret: secret, at: now))
    #expect(!TOTP.verify(try #require(TOTP.code(secret: secret, at: now - 60)), secret: secret, at: now))
    #expect(!TOTP.verify(try #require(TOTP.code(secret: secret, at: now - 60)), secret: secret, at: now, window: 1))
    #expect(TOTP.verify(try #require(TOTP.code(secret: secret, at: now - 150)), secret: secret, at: now, window: 5))
    #expect(!TOTP.verify("05047", secret: secret, at: now), "five digits")
    #expect(!TOTP.verify("05047a", secret: secret, at: now))
    #expect(!TOTP.verify(current, secret: "not base32!", at: now))
  }

  @Test("secrets: decoding is case- and space-tolerant")
  func secrets() throws {
    #expect(
      TOTP.decodeSecret("jbsw y3dp ehpk 3pxp")
        == Array("Hello!\u{DE}\u{AD}\u{BE}\u{EF}".unicodeScalars.map { UInt8($0.value) }))
    #expect(TOTP.normalisedSecret("jbswy3dpehpk3pxp====") == "JBSWY3DPEHPK3PXP")
    #expect(TOTP.decodeSecret("") == nil)
    #expect(TOTP.decodeSecret("ABC1") == nil, "1 is not in the alphabet")
    #expect(TOTP.decodeSecret("A") == nil, "one character is not a byte")
  }
}
