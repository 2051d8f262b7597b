import AuthTestSupport
import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

/// `--like-production` on the Firebase side, and the `rate_limit` preset in production's shape.
@Suite("Firebase like production")
struct FirebaseLikeProductionTests {
  static func harness(likeProduction: Bool = true) async throws -> FirebaseHarness {
    let harness = try FirebaseHarness()
    _ = await harness.send(
      "PUT", "/emulator/v1/config", body: (["like_production": .bool(likeProduction)] as JSON).bytes)
    return harness
  }

  @Test("enumeration protection: unknown e-mail signs in as INVALID_LOGIN_CREDENTIALS; a reset for it answers 200")
  func enumerationProtection() async throws {
    let harness = try await Self.harness()
    #expect(await harness.signIn("ghost@x.io").error == "INVALID_LOGIN_CREDENTIALS")
    let reset = await harness.call("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "ghost@x.io"])
    #expect(reset.status == 200)
    #expect(reset.string("email") == "ghost@x.io")
    #expect(await harness.oobCodes().isEmpty)
    let relaxed = try await Self.harness(likeProduction: false)
    #expect(await relaxed.signIn("ghost@x.io").error == "EMAIL_NOT_FOUND")
  }

  func resetPassword(_ harness: FirebaseHarness, _ email: String) async throws -> FirebaseReply {
    _ = await harness.call("sendOobCode", ["requestType": "PASSWORD_RESET", "email": .string(email)])
    let code = try #require(await harness.oobCodes().last?["oobCode"]?.string)
    return await harness.call("resetPassword", ["oobCode": .string(code), "newPassword": "another-secret"])
  }

  @Test("a password reset ends earlier refresh tokens: TOKEN_EXPIRED in Secure Token's production envelope")
  func refreshRevoked() async throws {
    let harness = try await Self.harness()
    let refreshToken = await harness.signUp("r@x.io").string("refreshToken")
    #expect(await harness.refresh(refreshToken).status == 200)
    harness.clock.advance(1.5)
    #expect(try await resetPassword(harness, "r@x.io").status == 200)
    let expired = await harness.refresh(refreshToken)
    #expect(expired.status == 400)
    #expect(expired.json == ["error": ["code": 400, "message": "TOKEN_EXPIRED", "status": "INVALID_ARGUMENT"]])
    let fresh = await harness.signIn("r@x.io", "another-secret").string("refreshToken")
    #expect(await harness.refresh(fresh).status == 200)
    let garbage = await harness.refresh("not-a-token")
    #expect(garbage.json == ["error": ["code": 400, "message": "INVALID_REFRESH_TOKEN", "status": "INVALID_ARGUMENT"]])

    let relaxed = try await Self.harness(likeProduction: false)
    let kept = await relaxed.signUp("k@x.io").string("refreshToken")
    relaxed.clock.advance(1.5)
    #expect(try await resetPassword(relaxed, "k@x.io").status == 200)
    #expect(await relaxed.refresh(kept).status == 200)
  }

  @Test("a password change through accounts:update ends other refresh tokens but not the ones it returns")
  func refreshRevokedByUpdate() async throws {
    let harness = try await Self.harness()
    let signUp = await harness.signUp("u@x.io")
    harness.clock.advance(0.25)
    let updated = await harness.call(
      "update", ["idToken": .string(signUp.string("idToken")), "password": "changed-secret", "returnSecureToken": true])
    #expect(updated.status == 200)
    #expect(await harness.refresh(signUp.string("refreshToken")).error == "TOKEN_EXPIRED")
    #expect(await harness.refresh(updated.string("refreshToken")).status == 200)
  }

  @Test("a reset code works for one hour, then EXPIRED_OOB_CODE; default mode keeps it")
  func resetCodeExpires() async throws {
    for likeProduction in [true, false] {
      let harness = try await Self.harness(likeProduction: likeProduction)
      await harness.signUp("e@x.io")
      _ = await harness.call("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "e@x.io"])
      let code = try #require(await harness.oobCodes().last?["oobCode"]?.string)
      harness.clock.advance(3601)
      let late = await harness.call("resetPassword", ["oobCode": .string(code), "newPassword": "another-secret"])
      #expect(late.error == (likeProduction ? "EXPIRED_OOB_CODE" : nil))
    }
  }

  @Test("sign-in answers name displayName, empty when unset, as production does")
  func displayNameEmpty() async throws {
    let harness = try await Self.harness()
    await harness.signUp("d@x.io")
    #expect(await harness.signIn("d@x.io")["displayName"] == "")
    let relaxed = try await Self.harness(likeProduction: false)
    await relaxed.signUp("d@x.io")
    #expect(await relaxed.signIn("d@x.io")["displayName"] == nil)
  }

  @Test("the rate_limit preset answers production's TOO_MANY_ATTEMPTS_TRY_LATER: HTTP 400, no status")
  func rateLimitPreset() async throws {
    let harness = try FirebaseHarness()
    let fault: JSON = [
      "path": "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword", "preset": "rate_limit",
    ]
    _ = await harness.send("POST", "/emulator/v1/faults", body: fault.bytes)
    let limited = await harness.signIn("a@x.io")
    #expect(limited.status == 400)
    #expect(
      limited.error?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily disabled")
        == true)
    #expect(limited.json["error"]?["status"] == nil)
    #expect(limited.json["error"]?["errors"]?[0]?["reason"] == "invalid")
  }
}
