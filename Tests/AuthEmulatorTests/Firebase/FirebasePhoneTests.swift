import JSONKit
import Testing

@testable import AuthEmulator

@Suite("accounts:sendVerificationCode, accounts:signInWithPhoneNumber, verificationCodes")
struct FirebasePhoneTests {
  func codes(_ harness: FirebaseHarness) async -> [JSON] {
    await harness.send("GET", "/emulator/v1/projects/\(harness.project)/verificationCodes")
      .json["verificationCodes"]?.array ?? []
  }

  @Test("the code is listed and in the outbox; it signs a new number up, once")
  func signUpAndIn() async throws {
    let harness = try FirebaseHarness()
    let sent = await harness.call("sendVerificationCode", ["phoneNumber": "+15551234567", "recaptchaToken": "x"])
    #expect(sent.status == 200)
    let sessionInfo = sent.string("sessionInfo")
    #expect(sessionInfo.count == 226)
    let listed = try #require(await codes(harness).first)
    #expect(listed["sessionInfo"]?.string == sessionInfo && listed["phoneNumber"] == "+15551234567")
    let code = try #require(listed["code"]?.string)
    let texted = try #require(harness.emulator.outbox.messages(to: "+15551234567", side: .firebase).last)
    #expect(texted.kind == "sms" && texted.code == code)

    let signedIn = await harness.call(
      "signInWithPhoneNumber", ["sessionInfo": .string(sessionInfo), "code": .string(code)])
    #expect(signedIn.status == 200)
    #expect(signedIn["isNewUser"] == true && signedIn["phoneNumber"] == "+15551234567")
    let claims = firebaseClaims(signedIn.string("idToken"))
    #expect(claims["phone_number"] == "+15551234567")
    #expect(claims["firebase"]?["sign_in_provider"] == "phone")
    #expect(await codes(harness).isEmpty)
    let reused = await harness.call(
      "signInWithPhoneNumber", ["sessionInfo": .string(sessionInfo), "code": .string(code)])
    #expect(reused.error == "INVALID_SESSION_INFO")
  }

  @Test("firebase-tools' errors")
  func errors() async throws {
    let harness = try FirebaseHarness()
    #expect(await harness.call("sendVerificationCode").error == "INVALID_PHONE_NUMBER : Invalid format.")
    #expect(
      await harness.call("sendVerificationCode", ["phoneNumber": "5551234567"]).error
        == "INVALID_PHONE_NUMBER : Invalid format.")
    let sessionInfo = await harness.call("sendVerificationCode", ["phoneNumber": "+15551234567"]).string("sessionInfo")
    #expect(await harness.call("signInWithPhoneNumber", ["code": "1"]).error == "MISSING_SESSION_INFO")
    #expect(await harness.call("signInWithPhoneNumber", ["sessionInfo": .string(sessionInfo)]).error == "MISSING_CODE")
    let wrong = await harness.call("signInWithPhoneNumber", ["sessionInfo": .string(sessionInfo), "code": "abcdef"])
    #expect(wrong.error == "INVALID_CODE")
    #expect(await codes(harness).count == 1)  // a wrong code leaves it usable
  }

  @Test("pending codes survive a restart of the store")
  func persisted() async throws {
    let store = FirebaseMemoryStore()
    let first = try FirebaseHarness(store: store)
    let sessionInfo = await first.call("sendVerificationCode", ["phoneNumber": "+15551234567"]).string("sessionInfo")
    let code = try #require(await codes(first).first?["code"]?.string)
    let second = try FirebaseHarness(store: store)
    let signedIn = await second.call(
      "signInWithPhoneNumber", ["sessionInfo": .string(sessionInfo), "code": .string(code)])
    #expect(signedIn.status == 200)
    #expect(store.documents(FirebaseProject.phoneCodesTable).isEmpty)
  }
}
