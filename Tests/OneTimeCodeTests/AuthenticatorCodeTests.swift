import OneTimeCode
import Testing

/// RFC 6238 appendix B (SHA-1 seed "12345678901234567890", base32 below), last six digits.
@Suite struct TOTPUnixTimeTests {
  static let seed = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

  @Test(arguments: [
    (59, "287082"), (1_111_111_109, "081804"), (1_111_111_111, "050471"), (1_234_567_890, "005924"),
    (2_000_000_000, "279037"),
  ])
  func matchesTheRFCVectors(_ time: Int, _ code: String) {
    #expect(TOTP.code(secret: Self.seed, unixTime: time) == code)
  }

  @Test func readsSecretsAsAppsShowThem() {
    let plain = TOTP.code(secret: "JBSWY3DPEHPK3PXP", unixTime: 1_700_000_000)
    #expect(plain != nil)
    #expect(TOTP.code(secret: "jbsw y3dp ehpk 3pxp", unixTime: 1_700_000_000) == plain)
    #expect(TOTP.code(secret: "not base32!", unixTime: 0) == nil)
    #expect(TOTP.code(secret: "", unixTime: 0) == nil)
  }
}
