import AuthTestSupport
import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Firebase accounts:sendOobCode and accounts:resetPassword")
struct FirebaseOobTests {
  @Test func passwordResetStoresACodeAndAMail() async throws {
    let harness = try FirebaseHarness()
    await harness.signUp("a@x.io")
    let sent = await harness.call("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "A@x.io"])
    #expect(sent.status == 200)
    #expect(sent.json == ["kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": "a@x.io"])
    let codes = await harness.oobCodes()
    #expect(codes.count == 1)
    let code = try #require(codes.first?["oobCode"]?.string)
    #expect(code.count == 54)
    #expect(code.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    #expect(codes.first?["requestType"]?.string == "PASSWORD_RESET")
    #expect(codes.first?["email"]?.string == "a@x.io")
    #expect(
      codes.first?["oobLink"]?.string
        == "http://127.0.0.1:9099/emulator/action?mode=resetPassword&lang=en&oobCode=\(code)&apiKey=fake-api-key")
    let mail = try #require(harness.emulator.outbox.messages(to: "a@x.io", side: .firebase).last)
    #expect(mail.kind == "PASSWORD_RESET" && mail.code == code && mail.link == codes.first?["oobLink"]?.string)
  }

  @Test func resetVerifiesWithoutConsumingAndConfirmsOnce() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    _ = await harness.call("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "a@x.io"])
    let code = try #require(await harness.oobCodes().first?["oobCode"])

    let verified = await harness.call("resetPassword", ["oobCode": code])
    #expect(
      verified.json == [
        "kind": "identitytoolkit#ResetPasswordResponse", "requestType": "PASSWORD_RESET",
        "email": "a@x.io",
      ])
    #expect(await harness.oobCodes().count == 1)

    #expect(
      await harness.call("resetPassword", ["oobCode": code, "newPassword": "123"]).error
        == "WEAK_PASSWORD : Password should be at least 6 characters")
    #expect(await harness.oobCodes().count == 1, "WEAK_PASSWORD keeps the code")

    harness.clock.advance(2)
    let confirmed = await harness.call("resetPassword", ["oobCode": code, "newPassword": "secret2"])
    #expect(confirmed.string("requestType") == "PASSWORD_RESET")
    #expect(await harness.oobCodes().isEmpty)
    #expect(
      await harness.call("resetPassword", ["oobCode": code, "newPassword": "secret2"]).error == "INVALID_OOB_CODE")

    #expect(await harness.signIn("a@x.io").error == "INVALID_PASSWORD")
    let signedIn = await harness.signIn("a@x.io", "secret2")
    #expect(firebaseClaims(signedIn.string("idToken"))["email_verified"]?.bool == true)
    #expect(await harness.call("lookup", ["idToken": created["idToken"] ?? ""]).error == "TOKEN_EXPIRED")
  }

  @Test func resetErrors() async throws {
    let harness = try FirebaseHarness()
    #expect(await harness.call("resetPassword", [:]).error == "MISSING_OOB_CODE")
    #expect(await harness.call("resetPassword", ["oobCode": "nope"]).error == "INVALID_OOB_CODE")
    #expect(
      await harness.call("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "no@x.io"]).error
        == "EMAIL_NOT_FOUND")
    #expect(await harness.call("sendOobCode", ["email": "no@x.io"]).error == "MISSING_REQ_TYPE")
    #expect(await harness.call("sendOobCode", ["requestType": "PASSWORD_RESET"]).error == "MISSING_EMAIL")
    let unknown = await harness.call("sendOobCode", ["requestType": "NOPE", "email": "a@x.io"])
    #expect(unknown.status == 400 && unknown.error?.hasPrefix("Invalid JSON payload received.") == true)
    #expect(unknown.json["error"]?["status"]?.string == "INVALID_ARGUMENT")
    #expect(
      await harness.call("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "a@x.io", "continueUrl": "nope"])
        .error == "INVALID_CONTINUE_URI : ((expected an absolute URI with valid scheme and host))")
    #expect(
      await harness.call("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "a@x.io", "returnOobLink": true])
        .error == "INSUFFICIENT_PERMISSION")
  }

  @Test func privacyOnHidesUnknownAddresses() async throws {
    let harness = try FirebaseHarness(emailPrivacy: true)
    let reply = await harness.call("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "ghost@x.io"])
    #expect(reply.status == 200 && reply.string("email") == "ghost@x.io")
    #expect(await harness.oobCodes().isEmpty)
    #expect(harness.emulator.outbox.messages(to: "ghost@x.io").isEmpty)
  }

  @Test func verifyEmailNeedsTheIdTokenAndIsAppliedWithUpdate() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    #expect(
      await harness.call("sendOobCode", ["requestType": "VERIFY_EMAIL", "email": "a@x.io"]).error == "INVALID_ID_TOKEN")
    let sent = await harness.call("sendOobCode", ["requestType": "VERIFY_EMAIL", "idToken": created["idToken"] ?? ""])
    #expect(sent.string("email") == "a@x.io")
    let oob = try #require(await harness.oobCodes().first)
    #expect(oob["requestType"]?.string == "VERIFY_EMAIL")
    #expect(oob["oobLink"]?.string?.contains("mode=verifyEmail") == true)
    #expect(harness.emulator.outbox.messages(to: "a@x.io").last?.kind == "VERIFY_EMAIL")

    let applied = await harness.call("update", ["oobCode": oob["oobCode"] ?? ""])
    #expect(applied["emailVerified"]?.bool == true)
    #expect(applied["idToken"] == nil)
    #expect(await harness.oobCodes().isEmpty)
    let anonymous = await harness.call("signUp")
    #expect(
      await harness.call("sendOobCode", ["requestType": "VERIFY_EMAIL", "idToken": anonymous["idToken"] ?? ""]).error
        == "MISSING_EMAIL")
  }

  @Test func verifyAndChangeEmailMovesTheAddress() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    await harness.signUp("taken@x.io")
    let idToken = created["idToken"] ?? ""
    #expect(
      await harness.call("sendOobCode", ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": idToken]).error
        == "MISSING_NEW_EMAIL")
    #expect(
      await harness.call("sendOobCode", ["requestType": "VERIFY_AND_CHANGE_EMAIL", "newEmail": "n@x.io"]).error
        == "MISSING_ID_TOKEN")
    #expect(
      await harness.call(
        "sendOobCode",
        [
          "requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": idToken,
          "newEmail": "taken@x.io",
        ]
      ).error == "EMAIL_EXISTS")
    _ = await harness.call(
      "sendOobCode", ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": idToken, "newEmail": "N@x.io"])
    let oob = try #require(await harness.oobCodes().first)
    #expect(oob["newEmail"]?.string == "n@x.io")
    let checked = await harness.call("resetPassword", ["oobCode": oob["oobCode"] ?? ""])
    #expect(checked.string("requestType") == "VERIFY_AND_CHANGE_EMAIL" && checked.string("newEmail") == "n@x.io")
    let applied = await harness.call("update", ["oobCode": oob["oobCode"] ?? ""])
    #expect(applied.string("email") == "n@x.io" && applied["emailVerified"]?.bool == true)
    #expect(await harness.signIn("n@x.io").status == 200)
  }

  @Test func codesSurviveDeletingAllAccountsButPointNowhere() async throws {
    let harness = try FirebaseHarness()
    await harness.signUp("a@x.io")
    _ = await harness.call("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "a@x.io"])
    let cleared = await harness.send("DELETE", "/emulator/v1/projects/demo-test/accounts")
    #expect(cleared.status == 200 && cleared.json == [:])
    let code = try #require(await harness.oobCodes().first?["oobCode"])
    #expect(
      await harness.call("resetPassword", ["oobCode": code, "newPassword": "secret2"]).error == "INVALID_OOB_CODE")
  }
}
