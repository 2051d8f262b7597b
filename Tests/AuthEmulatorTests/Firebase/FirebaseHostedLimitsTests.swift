import AuthTestSupport
import Foundation
import HostedLimits
import JSONKit
import Testing

@testable import AuthEmulator

/// The hosted service's quotas (the Firebase Authentication limits page) in the like-production
/// mode, in production's envelope; what stays within them passes.
@Suite("Firebase hosted quotas")
struct FirebaseHostedQuotaTests {
  @Test(
    "100 new accounts an hour per address, then TOO_MANY_ATTEMPTS_TRY_LATER; another address, admins and the next hour are fine"
  )
  func accountsPerAddress() async throws {
    let harness = try await FirebaseLikeProductionTests.harness()
    for index in 0..<ProductionLimits.Firebase.accountsPerAddressHour { await harness.signUp("n\(index)@x.io") }
    let refused = await harness.call("signUp", ["email": "n100@x.io", "password": "secret1"])
    #expect(refused.status == 400)
    #expect(
      refused.json == [
        "error": [
          "code": 400, "message": "TOO_MANY_ATTEMPTS_TRY_LATER",
          "errors": [["message": "TOO_MANY_ATTEMPTS_TRY_LATER", "domain": "global", "reason": "invalid"]],
        ]
      ])
    // A failed sign-up (an existing address) is not a new account and does not count.
    #expect(await harness.call("signUp", ["email": "n1@x.io", "password": "secret1"]).error == "EMAIL_EXISTS")
    let elsewhere = await harness.send(
      "POST", FirebaseHarness.toolkit + "accounts:signUp?key=fake-api-key",
      body: (["email": "far@x.io", "password": "secret1"] as JSON).bytes,
      headers: [("Content-Type", "application/json"), ("X-Forwarded-For", "198.51.100.9")])
    #expect(elsewhere.status == 200)
    #expect(await harness.admin("accounts", ["email": "admin-made@x.io", "password": "secret1"]).status == 200)
    harness.clock.advance(3600)
    await harness.signUp("n100@x.io")
  }

  @Test("password-reset mails: 150 a day on the free plan, then QUOTA_EXCEEDED; admin links are not mails")
  func resetQuota() async throws {
    let harness = try await FirebaseLikeProductionTests.harness()
    await harness.signUp("r@x.io")
    for _ in 0..<ProductionLimits.Firebase.resetMailsPerDay {
      #expect(await harness.call("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "r@x.io"]).status == 200)
    }
    let over = await harness.call("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "r@x.io"])
    #expect(over.status == 400)
    #expect(over.error == "QUOTA_EXCEEDED : Exceeded daily quota for password reset.")
    let link = await harness.admin(
      "accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": "r@x.io", "returnOobLink": true])
    #expect(link.status == 200)
    harness.clock.advance(86400)
    #expect(await harness.call("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "r@x.io"]).status == 200)
  }

  @Test("e-mail-link sign-in mails: 5 a day; verification mails have their own quota")
  func signInLinkQuota() async throws {
    let harness = try await FirebaseLikeProductionTests.harness()
    let body: JSON = ["requestType": "EMAIL_SIGNIN", "email": "l@x.io", "continueUrl": "https://app.example.com/done"]
    for _ in 0..<5 { #expect(await harness.call("sendOobCode", body).status == 200) }
    #expect(await harness.call("sendOobCode", body).error == "QUOTA_EXCEEDED : Exceeded daily quota for email sign-in.")
    let idToken = await harness.signUp("v@x.io").string("idToken")
    #expect(
      await harness.call("sendOobCode", ["requestType": "VERIFY_EMAIL", "idToken": .string(idToken)]).status == 200)
  }

  @Test("the default mode has none of these quotas")
  func defaultMode() async throws {
    let harness = try await FirebaseLikeProductionTests.harness(likeProduction: false)
    let body: JSON = ["requestType": "EMAIL_SIGNIN", "email": "l@x.io", "continueUrl": "https://app.example.com/done"]
    for _ in 0..<10 { #expect(await harness.call("sendOobCode", body).status == 200) }
    for index in 0..<110 { await harness.signUp("d\(index)@x.io") }
  }
}

/// The v2 project config's `signIn.email`, as Google answers it (false booleans left out), and what
/// it turns off.
@Suite("Firebase signIn.email config")
struct FirebaseEmailSignInConfigTests {
  func v2(_ harness: FirebaseHarness, _ method: String, query: String = "", _ body: JSON? = nil) async -> FirebaseReply
  {
    await harness.send(
      method, "/identitytoolkit.googleapis.com/v2/projects/\(harness.project)/config" + query, body: body?.bytes ?? [],
      headers: [("Content-Type", "application/json"), ("Authorization", "Bearer owner")])
  }

  @Test("a new project has e-mail/password on with a password required; a false passwordRequired is left out")
  func shape() async throws {
    let harness = try FirebaseHarness()
    #expect(await v2(harness, "GET").json["signIn"]?["email"] == ["enabled": true, "passwordRequired": true])
    let linkToo = await v2(
      harness, "PATCH", query: "?updateMask=signIn.email.passwordRequired",
      ["signIn": ["email": ["passwordRequired": false]]])
    #expect(linkToo.json["signIn"]?["email"] == ["enabled": true])
    // Passwords still work: passwordRequired false only lets e-mail links sign in too.
    await harness.signUp("p@x.io")
    #expect(await harness.signIn("p@x.io").status == 200)
  }

  @Test("signIn.email.enabled false: password sign-in and sign-up are OPERATION_NOT_ALLOWED")
  func disabled() async throws {
    let harness = try FirebaseHarness()
    await harness.signUp("p@x.io")
    let off = await v2(harness, "PATCH", query: "?updateMask=signIn.email", ["signIn": ["email": ["enabled": false]]])
    #expect(off.json["signIn"]?["email"] == [:])
    #expect(
      await harness.signIn("p@x.io").error == "OPERATION_NOT_ALLOWED : Password sign-in is disabled for this project")
    #expect(await harness.call("signUp", ["email": "q@x.io", "password": "secret1"]).error == "OPERATION_NOT_ALLOWED")
    let back = await harness.patchConfig(["signIn": ["email": ["enabled": true]]])
    #expect(back.json["signIn"]?["email"]?["enabled"] == true)
    #expect(await harness.signIn("p@x.io").status == 200)
  }

  @Test("an update without signIn.email leaves it alone; a wrong type is INVALID_ARGUMENT")
  func otherUpdates() async throws {
    let harness = try FirebaseHarness()
    _ = await v2(harness, "PATCH", ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]])
    #expect(await v2(harness, "GET").json["signIn"]?["email"]?["enabled"] == true)
    #expect(await v2(harness, "PATCH", ["signIn": ["email": ["enabled": "yes"]]]).status == 400)
  }
}
