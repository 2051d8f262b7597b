import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Firebase accounts:lookup, accounts:delete, accounts:createAuthUri")
struct FirebaseAccountsTests {
  @Test func lookupReturnsTheStoredRecordWithoutThePassword() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io", "super-secret", name: "Alice")
    let reply = await harness.call("lookup", ["idToken": created["idToken"] ?? ""])
    #expect(reply.string("kind") == "identitytoolkit#GetAccountInfoResponse")
    let user = try #require(reply["users"]?[0])
    #expect(user["localId"] == created["localId"])
    #expect(user["email"]?.string == "a@x.io")
    #expect(user["emailVerified"]?.bool == false)
    #expect(user["displayName"]?.string == "Alice")
    #expect(user["passwordHash"]?.string == "UkVEQUNURUQ=")
    #expect(user["salt"] == nil)
    #expect(user["createdAt"]?.string != nil && user["lastLoginAt"]?.string != nil)
    #expect(user["validSince"]?.string != nil)
    #expect(user["passwordUpdatedAt"]?.int != nil)
    #expect(user["lastRefreshAt"]?.string?.hasSuffix("Z") == true)
    #expect(
      user["providerUserInfo"]?[0] == [
        "providerId": "password", "email": "a@x.io", "federatedId": "a@x.io",
        "rawId": "a@x.io", "displayName": "Alice",
      ])
    #expect(!reply.text.contains("super-secret"))
  }

  @Test func lookupErrors() async throws {
    let harness = try FirebaseHarness()
    #expect(await harness.call("lookup", [:]).error == "MISSING_ID_TOKEN")
    #expect(await harness.call("lookup", ["idToken": "not.a.jwt"]).error == "INVALID_ID_TOKEN")
    let created = await harness.signUp("a@x.io")
    _ = await harness.call("delete", ["idToken": created["idToken"] ?? ""])
    #expect(await harness.call("lookup", ["idToken": created["idToken"] ?? ""]).error == "USER_NOT_FOUND")
    #expect(await harness.refresh(created.string("refreshToken")).error == "INVALID_REFRESH_TOKEN")
  }

  @Test func adminLookupByIdentifiers() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    let byEmail = await harness.admin(
      "accounts:lookup", ["email": ["A@X.IO"], "localId": created["localId"].map { [$0] } ?? []])
    #expect(byEmail["users"]?.array?.count == 1, "duplicates are removed")
    let none = await harness.admin("accounts:lookup", ["email": ["nobody@x.io"]])
    #expect(none.status == 200 && none["users"] == nil)
    #expect(none.json == ["kind": "identitytoolkit#GetAccountInfoResponse"])
  }

  @Test func deleteByTokenAndByAdmin() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    #expect(await harness.call("delete", ["localId": created["localId"] ?? ""]).error == "MISSING_ID_TOKEN")
    let deleted = await harness.call("delete", ["idToken": created["idToken"] ?? ""])
    #expect(deleted.json == ["kind": "identitytoolkit#DeleteAccountResponse"])
    let other = await harness.signUp("b@x.io")
    #expect(await harness.admin("accounts:delete", [:]).error == "MISSING_LOCAL_ID")
    #expect(await harness.admin("accounts:delete", ["localId": "nosuch"]).error == "USER_NOT_FOUND")
    #expect(await harness.admin("accounts:delete", ["localId": other["localId"] ?? ""]).status == 200)
    #expect(await harness.signIn("b@x.io").error == "EMAIL_NOT_FOUND")
  }

  @Test func createAuthUriReportsProviders() async throws {
    let harness = try FirebaseHarness()
    await harness.signUp("a@x.io")
    let known = await harness.call("createAuthUri", ["identifier": "A@x.io", "continueUri": "http://localhost/"])
    #expect(known["registered"]?.bool == true)
    #expect(known["allProviders"] == ["password"] && known["signinMethods"] == ["password"])
    #expect(known.string("sessionId").count == 27)
    let unknown = await harness.call("createAuthUri", ["identifier": "b@x.io", "continueUri": "http://localhost/"])
    #expect(unknown["registered"]?.bool == false && unknown["allProviders"] == [])
    #expect(await harness.call("createAuthUri", ["continueUri": "http://localhost/"]).error == "MISSING_IDENTIFIER")
    #expect(await harness.call("createAuthUri", ["identifier": "a@x.io"]).error == "MISSING_CONTINUE_URI")
    #expect(
      await harness.call("createAuthUri", ["identifier": "ax.io", "continueUri": "http://l/"]).error
        == "INVALID_IDENTIFIER")
    #expect(
      await harness.call("createAuthUri", ["identifier": "a@x.io", "continueUri": "nope"]).error
        == "INVALID_CONTINUE_URI")
    _ = await harness.patchConfig(["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]])
    let hidden = await harness.call("createAuthUri", ["identifier": "a@x.io", "continueUri": "http://localhost/"])
    #expect(hidden.json.object?.keys == ["kind", "sessionId"])
  }
}
