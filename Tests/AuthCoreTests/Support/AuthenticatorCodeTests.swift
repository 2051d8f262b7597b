import AuthCore
import Testing

/// RFC 6238 appendix B (SHA-1 seed "12345678901234567890", base32 below), last six digits.
@Suite struct AuthenticatorCodeTests {
  static let seed = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

  @Test(arguments: [
    (59, "287082"), (1_111_111_109, "081804"), (1_111_111_111, "050471"), (1_234_567_890, "005924"),
    (2_000_000_000, "279037"),
  ])
  func matchesTheRFCVectors(_ time: Int, _ code: String) {
    #expect(AuthenticatorCode.code(secret: Self.seed, at: time) == code)
  }

  @Test func readsSecretsAsAppsShowThem() {
    let plain = AuthenticatorCode.code(secret: "JBSWY3DPEHPK3PXP", at: 1_700_000_000)
    #expect(plain != nil)
    #expect(AuthenticatorCode.code(secret: "jbsw y3dp ehpk 3pxp", at: 1_700_000_000) == plain)
    #expect(AuthenticatorCode.code(secret: "not base32!", at: 0) == nil)
    #expect(AuthenticatorCode.code(secret: "", at: 0) == nil)
  }
}
