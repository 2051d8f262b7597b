import Foundation
import OneTimeCode
import Testing

@testable import AuthEmulator

@Suite("The enrolment QR code")
struct EnrolmentQRCodeTests {
  @Test("a new secret: 32 characters of unpadded base32, 20 bytes, a different one each time")
  func newSecrets() throws {
    let secret = TOTP.newSecret()
    #expect(secret.count == 32)
    #expect(TOTP.decodeSecret(secret)?.count == 20)
    #expect(TOTP.newSecret() != secret)
  }

  @Test("the QR code is a real symbol: finder patterns in three corners, an SVG of its modules")
  func qrCode() throws {
    let uri = SupabaseFactorRoutes.otpauthURI(
      issuer: "127.0.0.1:3000", account: "ada+mfa@example.com", secret: "JBSWY3DPEHPK3PXP")
    #expect(
      uri
        == "otpauth://totp/127.0.0.1:3000:ada+mfa@example.com?algorithm=SHA1&digits=6&issuer=127.0.0.1:3000&period=30&secret=JBSWY3DPEHPK3PXP"
    )
    // pquerna/otp path-escapes the query: a space is %20, which authenticator apps read (not +).
    let spaced = SupabaseFactorRoutes.otpauthURI(issuer: "My App", account: "a@example.com", secret: "JBSWY3DPEHPK3PXP")
    #expect(
      spaced
        == "otpauth://totp/My%20App:a@example.com?algorithm=SHA1&digits=6&issuer=My%20App&period=30&secret=JBSWY3DPEHPK3PXP"
    )
    let modules = try #require(QRCodeSVG.modules(uri))
    let width = modules.count
    #expect(width >= 21 && (width - 21) % 4 == 0, "QR versions are 21 + 4k modules wide")
    func finder(_ row: Int, _ column: Int) -> Bool {
      (0..<7).allSatisfy { r in
        (0..<7).allSatisfy { c in
          let ring = r == 0 || r == 6 || c == 0 || c == 6
          let core = (2...4).contains(r) && (2...4).contains(c)
          return modules[row + r][column + c] == (ring || core)
        }
      }
    }
    #expect(finder(0, 0) && finder(0, width - 7) && finder(width - 7, 0))
    let svg = try #require(QRCodeSVG.svg(uri))
    #expect(svg.hasPrefix("<?xml"))
    let dark = modules.joined().filter { $0 }.count
    #expect(svg.components(separatedBy: "fill:black").count - 1 == dark)
  }
}
