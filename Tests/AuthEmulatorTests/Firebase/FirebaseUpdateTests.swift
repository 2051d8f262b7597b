import AuthTestSupport
import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Firebase accounts:update")
struct FirebaseUpdateTests {
  @Test func profileChangesReturnNoTokens() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    let reply = await harness.call(
      "update",
      [
        "idToken": created["idToken"] ?? "", "displayName": "Alice",
        "photoUrl": "http://x.io/a.png", "returnSecureToken": true,
      ])
    #expect(reply.status == 200)
    #expect(reply.string("kind") == "identitytoolkit#SetAccountInfoResponse")
    #expect(reply.string("displayName") == "Alice")
    #expect(reply.string("photoUrl") == "http://x.io/a.png")
    #expect(reply["idToken"] == nil && reply["refreshToken"] == nil)
    #expect(reply.string("passwordHash") == "UkVEQUNURUQ=")
    #expect(reply["providerUserInfo"]?[0]?["providerId"]?.string == "password")
    #expect(await harness.call("lookup", ["idToken": created["idToken"] ?? ""]).status == 200, "old token still valid")

    let removed = await harness.call(
      "update", ["idToken": created["idToken"] ?? "", "deleteAttribute": ["DISPLAY_NAME"]])
    #expect(removed["displayName"] == nil)
    #expect(removed.string("photoUrl") == "http://x.io/a.png")
  }

  @Test func passwordChangeRevokesOlderTokensAndReturnsNewOnes() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    harness.clock.advance(2)
    let reply = await harness.call("update", ["idToken": created["idToken"] ?? "", "password": "secret2"])
    #expect(reply.string("expiresIn") == "3600")
    let newToken = reply.string("idToken")
    #expect(!newToken.isEmpty)
    #expect(await harness.call("lookup", ["idToken": created["idToken"] ?? ""]).error == "TOKEN_EXPIRED")
    #expect(await harness.call("lookup", ["idToken": .string(newToken)]).status == 200)
    #expect(await harness.signIn("a@x.io", "secret2").status == 200)
    // The official emulator's refresh tokens are stateless (--like-production revokes them).
    #expect(await harness.refresh(created.string("refreshToken")).status == 200)
    #expect(await harness.refresh(reply.string("refreshToken")).status == 200)
    #expect(
      await harness.call("update", ["idToken": .string(newToken), "password": "123"]).error
        == "WEAK_PASSWORD : Password should be at least 6 characters")
  }

  @Test func tokensMintedInTheSameSecondSurvive() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    _ = await harness.call("update", ["idToken": created["idToken"] ?? "", "password": "secret2"])
    #expect(await harness.call("lookup", ["idToken": created["idToken"] ?? ""]).status == 200)
  }

  @Test func emailChangeUnverifiesAndSendsARecoveryCode() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    await harness.signUp("taken@x.io")
    let idToken = created["idToken"] ?? ""
    #expect(await harness.call("update", ["idToken": idToken, "email": "bad"]).error == "INVALID_EMAIL")
    #expect(await harness.call("update", ["idToken": idToken, "email": "taken@x.io"]).error == "EMAIL_EXISTS")
    harness.clock.advance(2)
    let reply = await harness.call("update", ["idToken": idToken, "email": "New@x.io"])
    #expect(reply.string("email") == "new@x.io" && reply.string("newEmail") == "new@x.io")
    #expect(reply["emailVerified"]?.bool == false)
    #expect(!reply.string("idToken").isEmpty)
    #expect(await harness.call("lookup", ["idToken": idToken]).error == "TOKEN_EXPIRED")
    let recover = try #require(await harness.oobCodes().first)
    #expect(recover["requestType"]?.string == "RECOVER_EMAIL" && recover["email"]?.string == "a@x.io")
    let applied = await harness.call("update", ["oobCode": recover["oobCode"] ?? ""])
    #expect(applied.string("email") == "a@x.io")
  }

  @Test func clientRestrictions() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    let idToken = created["idToken"] ?? ""
    #expect(
      await harness.call("update", ["displayName": "x"]).error == "INVALID_REQ_TYPE : Unsupported request parameters.")
    #expect(
      await harness.call("update", ["idToken": idToken, "customAttributes": "{}"]).error == "INSUFFICIENT_PERMISSION")
    #expect(await harness.call("update", ["idToken": idToken, "disableUser": true]).error == "OPERATION_NOT_ALLOWED")
    #expect(await harness.call("update", ["idToken": "garbage", "displayName": "x"]).error == "INVALID_ID_TOKEN")
    #expect(await harness.call("update", ["oobCode": "nope"]).error == "INVALID_OOB_CODE")
    let unimplemented = await harness.call("update", ["idToken": idToken, "deleteAttribute": ["PROVIDER"]])
    #expect(unimplemented.status == 501)
  }

  @Test func deletingThePasswordProviderRemovesEmailAndPassword() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    let reply = await harness.call("update", ["idToken": created["idToken"] ?? "", "deleteProvider": ["password"]])
    #expect(reply["email"] == nil && reply["passwordHash"] == nil)
    #expect(reply["providerUserInfo"] == [])
    #expect(await harness.signIn("a@x.io").error == "EMAIL_NOT_FOUND")
  }

  @Test func adminUpdatesByLocalId() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    let localId = created["localId"] ?? ""
    let reply = await harness.admin(
      "accounts:update",
      [
        "localId": localId, "emailVerified": true, "displayName": "Boss", "customAttributes": #"{"admin":true}"#,
      ])
    #expect(reply.status == 200 && reply["emailVerified"]?.bool == true)
    let claims = firebaseClaims(await harness.signIn("a@x.io").string("idToken"))
    #expect(claims["admin"]?.bool == true && claims["name"]?.string == "Boss")

    #expect(
      await harness.admin("accounts:update", ["localId": localId, "customAttributes": #"{"sub":"x"}"#]).error
        == "FORBIDDEN_CLAIM : sub")
    #expect(
      await harness.admin("accounts:update", ["localId": localId, "customAttributes": "[1]"]).error == "INVALID_CLAIMS")
    #expect(await harness.admin("accounts:update", ["displayName": "x"]).error == "MISSING_LOCAL_ID")
    #expect(
      await harness.admin("accounts:update", ["localId": "nosuch", "validSince": 1_611_780_718]).error
        == "USER_NOT_FOUND")

    let issued = await harness.signIn("a@x.io")
    harness.clock.advance(5)
    let revoke = await harness.admin(
      "accounts:update",
      [
        "localId": localId, "validSince": .int(Int(harness.clock.now().timeIntervalSince1970)),
      ])
    #expect(revoke.status == 200 && revoke["idToken"] == nil)
    #expect(await harness.call("lookup", ["idToken": issued["idToken"] ?? ""]).error == "TOKEN_EXPIRED")

    _ = await harness.admin("accounts:update", ["localId": localId, "disableUser": true])
    #expect(await harness.refresh(issued.string("refreshToken")).error == "USER_DISABLED")
    _ = await harness.admin("accounts:update", ["localId": localId, "disableUser": false])
    #expect(await harness.signIn("a@x.io").status == 200)
  }
}
