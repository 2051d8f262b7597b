import AuthCore
import Foundation
import Testing

@testable import Providers

/// `--verbose` lines mask every secret field of both wires, in bodies, URLs (and links inside
/// bodies) and headers; the values masked here are known, so each must be gone.
@Suite struct WireTraceTests {
  static let secrets = [
    "JBSWY3DPEHPK3PXP", "otpauth://totp/x:ada?secret=JBSWY3DPEHPK3PXP", "data:image/svg+xml;utf-8,<svg/>",
    "PENDING-CRED-1",
    "123456", "SESSION-INFO-1", "OOB-CODE-1", "HASH-TOKEN-1", "SIGNER-KEY-1", "SALT-SEP-1", "NONCE-1",
  ]

  func trace(_ body: String) -> String {
    WireTrace.describe(HTTPResponse(status: 200, headers: [], body: Array(body.utf8)), elapsed: 0)
  }

  @Test func supabaseEnrolmentAndVerification() {
    let answer = trace(
      #"{"id":"f1","totp":{"qr_code":"data:image/svg+xml;utf-8,<svg/>","secret":"JBSWY3DPEHPK3PXP","uri":"otpauth://totp/x:ada?secret=JBSWY3DPEHPK3PXP"}}"#
    )
    let verify = WireTrace.describe(
      HTTPRequest(
        method: "POST", url: URL(string: "http://127.0.0.1:9/factors/f1/verify")!, headers: [],
        body: Array(#"{"challenge_id":"c1","code":"123456"}"#.utf8)))
    for secret in Self.secrets { #expect(!(answer + verify).contains(secret), "\(secret)") }
    #expect(answer.contains(#""id":"f1""#) && verify.contains(#""challenge_id":"c1""#))
  }

  @Test func firebaseSecondFactorsAndHashKeys() {
    let text = [
      trace(
        #"{"totpSessionInfo":{"sharedSecretKey":"JBSWY3DPEHPK3PXP","sessionInfo":"SESSION-INFO-1","verificationCodeLength":6}}"#
      ),
      trace(#"{"mfaPendingCredential":"PENDING-CRED-1","mfaInfo":[{"mfaEnrollmentId":"e1"}]}"#),
      trace(#"{"totpVerificationInfo":{"verificationCode":"123456"},"mfaPendingCredential":"PENDING-CRED-1"}"#),
      trace(#"{"signIn":{"hashConfig":{"signerKey":"SIGNER-KEY-1","saltSeparator":"SALT-SEP-1","rounds":8}}}"#),
      trace(#"{"oobCodes":[{"oobCode":"OOB-CODE-1","oobLink":"http://h/?oobCode=OOB-CODE-1"}]}"#),
    ].joined(separator: "\n")
    for secret in Self.secrets { #expect(!text.contains(secret), "\(secret)") }
    #expect(text.contains(#""rounds":8"#) && text.contains(#""mfaEnrollmentId":"e1""#))
  }

  /// `user import --verbose` into Supabase: the admin create body carries the hash (a Firebase
  /// scrypt one holds the project's signer key); `--db` rows name it `encrypted_password`.
  @Test func importedPasswordHashes() {
    let hash = "$fbscrypt$v=1,n=8,r=4,p=1,ss=SALT-SEP-1,sk=SIGNER-KEY-1$c2FsdA==$aGFzaA=="
    let request = WireTrace.describe(
      HTTPRequest(
        method: "POST", url: URL(string: "http://127.0.0.1:9/auth/v1/admin/users")!, headers: [],
        body: Array(
          #"{"email":"ada@example.com","password_hash":"\#(hash)","encrypted_password":"$2b$04$BCRYPT"}"#.utf8)))
    #expect(!request.contains("SIGNER-KEY-1") && !request.contains("$2b$04$BCRYPT"), "\(request)")
    #expect(request.contains(#""password_hash":"***""#) && request.contains("ada@example.com"), "\(request)")
  }

  @Test func oneTimeCodesAndLinksInTheOutboxAndInURLs() {
    let outbox = trace(
      #"{"messages":[{"email":"ada@example.com","code":"123456","link":"http://127.0.0.1:9/auth/v1/verify?token=HASH-TOKEN-1&type=recovery&redirect_to=http://x"}]}"#
    )
    #expect(outbox.contains("token=***&type=recovery"), "\(outbox)")
    let request = WireTrace.describe(
      HTTPRequest(
        method: "GET", url: URL(string: "http://127.0.0.1:9/auth/v1/verify?token_hash=HASH-TOKEN-1&type=email&key=k")!,
        headers: [("Authorization", "Bearer A"), ("apikey", "K"), ("Cookie", "sid=NONCE-1")]))
    #expect(request.contains("token_hash=***&type=email&key=***"), "\(request)")
    let reauthenticate = WireTrace.describe(
      HTTPRequest(
        method: "PUT", url: URL(string: "http://127.0.0.1:9/auth/v1/user")!, headers: [],
        body: Array(#"{"password":"p","nonce":"NONCE-1"}"#.utf8)))
    for secret in Self.secrets { #expect(!(outbox + request + reauthenticate).contains(secret), "\(secret)") }
  }

  @Test func theEnrolmentSecretIsFoundForTheRedactor() {
    #expect(WireTrace.enrolmentSecrets(in: Array(#"{"totp":{"secret":"S1"}}"#.utf8)) == ["S1"])
    #expect(WireTrace.enrolmentSecrets(in: Array(#"{"totpSessionInfo":{"sharedSecretKey":"S2"}}"#.utf8)) == ["S2"])
    #expect(WireTrace.enrolmentSecrets(in: Array("not json".utf8)).isEmpty)
  }

  struct Answering: HTTPTransport {
    let body: String
    func send(_ request: HTTPRequest) async throws -> HTTPResponse { HTTPResponse(status: 200, body: Array(body.utf8)) }
  }

  /// The redactor hears of the answer's TOTP secret before the answer is traced.
  @Test func theSecretIsRegisteredBeforeTheAnswerIsTraced() async throws {
    let events = Guarded<[String]>([])
    let client = WireClient(
      transport: Answering(body: #"{"totp":{"secret":"JBSWY3DPEHPK3PXP"}}"#), timeout: 5, allowInsecureHTTP: false,
      trace: { line in events.update { $0.append(line.hasPrefix("<") ? "answer traced" : "request traced") } },
      secrets: { secret in events.update { $0.append("registered " + secret) } })
    _ = try await client.send("POST", try #require(URL(string: "http://127.0.0.1:9/factors")), headers: [])
    #expect(events[\.self] == ["request traced", "registered JBSWY3DPEHPK3PXP", "answer traced"])
  }
}
