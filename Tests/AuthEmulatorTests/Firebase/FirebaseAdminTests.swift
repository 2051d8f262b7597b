import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Firebase admin operations (Bearer owner)")
struct FirebaseAdminTests {
  @Test func createUserReturnsNoTokens() async throws {
    let harness = try FirebaseHarness()
    let reply = await harness.admin(
      "accounts",
      [
        "localId": "uid123", "email": "Admin@x.io", "password": "secret1",
        "displayName": "Ad", "emailVerified": true,
      ])
    #expect(reply.status == 200)
    #expect(
      reply.json == [
        "kind": "identitytoolkit#SignupNewUserResponse", "localId": "uid123", "displayName": "Ad",
        "email": "admin@x.io",
      ])
    #expect(await harness.admin("accounts", ["localId": "uid123"]).error == "DUPLICATE_LOCAL_ID")
    #expect(await harness.admin("accounts", ["email": "admin@x.io"]).error == "EMAIL_EXISTS")
    let signedIn = await harness.signIn("admin@x.io")
    #expect(firebaseClaims(signedIn.string("idToken"))["email_verified"]?.bool == true)
    let noPassword = await harness.admin("accounts", ["email": "np@x.io"])
    #expect(noPassword.status == 200)
    #expect(await harness.signIn("np@x.io").error == "INVALID_PASSWORD")
  }

  @Test func anAccountTheAdminCreatesHasNeverSignedInUntilItDoes() async throws {
    // Production leaves lastLoginAt out (the Admin SDKs' lastSignInTime is null); a sign-up and a
    // sign-in set it.
    let harness = try FirebaseHarness()
    _ = await harness.admin("accounts", ["localId": "made", "email": "made@x.io", "password": "secret1"])
    let made = try #require(await harness.admin("accounts:lookup", ["localId": ["made"]])["users"]?[0])
    #expect(made["createdAt"]?.string != nil && made["lastLoginAt"] == nil)
    _ = await harness.signIn("made@x.io")
    let signedIn = try #require(await harness.admin("accounts:lookup", ["localId": ["made"]])["users"]?[0])
    #expect(signedIn["lastLoginAt"]?.string != nil)
    let own = await harness.signUp("self@x.io", "secret1")
    let selfMade = try #require(
      await harness.admin("accounts:lookup", ["localId": [own["localId"] ?? ""]])["users"]?[0])
    #expect(selfMade["lastLoginAt"]?.string != nil, "a sign-up signs in")
  }

  @Test func batchGetPagesByLocalId() async throws {
    let harness = try FirebaseHarness()
    for index in 0..<3 { _ = await harness.admin("accounts", ["localId": .string("u\(index)")]) }
    let first = await harness.admin("accounts:batchGet?maxResults=2", method: "GET")
    #expect(first.string("kind") == "identitytoolkit#DownloadAccountResponse")
    #expect(first["users"]?.array?.compactMap { $0["localId"]?.string } == ["u0", "u1"])
    #expect(first.string("nextPageToken") == "u1")
    let second = await harness.admin("accounts:batchGet?maxResults=2&nextPageToken=u1", method: "GET")
    #expect(second["users"]?.array?.compactMap { $0["localId"]?.string } == ["u2"])
    #expect(second["nextPageToken"] == nil)
  }

  @Test func batchDeleteNeedsDisabledOrForce() async throws {
    let harness = try FirebaseHarness()
    _ = await harness.admin("accounts", ["localId": "a"])
    _ = await harness.admin("accounts", ["localId": "b", "disabled": true])
    let reply = await harness.admin("accounts:batchDelete", ["localIds": ["a", "b", "missing"]])
    #expect(
      reply["errors"] == [
        ["index": 0, "localId": "a", "message": "NOT_DISABLED : Disable the account before batch deletion."]
      ])
    #expect(await harness.admin("accounts:batchDelete", ["localIds": ["a"], "force": true]).json == [:])
    #expect(await harness.admin("accounts:lookup", ["localId": ["a", "b"]])["users"] == nil)
    #expect(await harness.admin("accounts:batchDelete", ["localIds": []]).error == "LOCAL_ID_LIST_EXCEEDS_LIMIT")
  }

  @Test func sendOobCodeReturnsTheLinkWithoutMail() async throws {
    let harness = try FirebaseHarness()
    await harness.signUp("a@x.io")
    let reset = await harness.admin(
      "accounts:sendOobCode",
      [
        "requestType": "PASSWORD_RESET", "email": "a@x.io",
        "returnOobLink": true,
      ])
    #expect(reset.string("oobLink").contains("mode=resetPassword"))
    #expect(reset.string("oobLink").contains("oobCode=" + reset.string("oobCode")))
    #expect(harness.emulator.outbox.messages(to: "a@x.io").isEmpty)
    let verify = await harness.admin(
      "accounts:sendOobCode",
      [
        "requestType": "VERIFY_EMAIL", "email": "a@x.io",
        "returnOobLink": true,
      ])
    #expect(verify.string("oobLink").contains("mode=verifyEmail"))
    #expect(
      await harness.admin(
        "accounts:sendOobCode",
        [
          "requestType": "VERIFY_EMAIL", "email": "no@x.io",
          "returnOobLink": true,
        ]
      ).error == "USER_NOT_FOUND")
    #expect(
      await harness.admin(
        "accounts:sendOobCode",
        [
          "requestType": "PASSWORD_RESET", "email": "no@x.io",
          "returnOobLink": true,
        ]
      ).error == "EMAIL_NOT_FOUND")
    #expect(
      await harness.call("resetPassword", ["oobCode": reset["oobCode"] ?? "", "newPassword": "secret9"]).status == 200)
    #expect(await harness.signIn("a@x.io", "secret9").status == 200)
  }

  @Test func projectPathsNeedOAuthAndSelectTheProject() async throws {
    let harness = try FirebaseHarness()
    let keyOnly = await harness.send(
      "POST", "/identitytoolkit.googleapis.com/v1/projects/demo-test/accounts:lookup?key=k",
      body: Array(#"{"localId":["x"]}"#.utf8))
    #expect(keyOnly.error == "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
    let badBearer = await harness.send(
      "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
      headers: [("Authorization", "Bearer some-id-token")])
    #expect(badBearer.status == 401)
    #expect(badBearer.json["error"]?["status"]?.string == "UNAUTHENTICATED")
    let casing = await harness.send(
      "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp",
      headers: [("Authorization", "bEArEr OWNER")])
    #expect(casing.status == 200 && casing["idToken"] == nil)

    _ = await harness.send(
      "POST", "/identitytoolkit.googleapis.com/v1/projects/other/accounts",
      body: Array(#"{"email":"o@x.io","password":"secret1"}"#.utf8),
      headers: [("Authorization", "Bearer owner")])
    #expect(await harness.signIn("o@x.io").error == "EMAIL_NOT_FOUND", "another project is a separate state")
    let other = await harness.send(
      "POST", "/identitytoolkit.googleapis.com/v1/projects/other/accounts:lookup",
      body: Array(#"{"email":["o@x.io"]}"#.utf8), headers: [("Authorization", "Bearer owner")])
    #expect(other["users"]?.array?.count == 1)
  }

  @Test func queryAndSessionCookie() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    let query = await harness.admin("accounts:query", [:])
    #expect(query.string("recordsCount") == "1" && query["userInfo"]?.array?.count == 1)
    let session = await harness.send(
      "POST", "/identitytoolkit.googleapis.com/v1/projects/demo-test:createSessionCookie",
      body: JSON.object(JSONObject([("idToken", created["idToken"] ?? ""), ("validDuration", "600")])).bytes,
      headers: [("Authorization", "Bearer owner")])
    let claims = firebaseClaims(session.string("sessionCookie"))
    #expect(claims["iss"]?.string == "https://session.firebase.google.com/demo-test")
    #expect((claims["exp"]?.int ?? 0) - (claims["iat"]?.int ?? 0) == 600)
  }

  @Test func v2ConfigNeedsOAuthAndHonoursTheMask() async throws {
    let harness = try FirebaseHarness()
    let uri = "/identitytoolkit.googleapis.com/v2/projects/demo-test/config"
    #expect(await harness.send("GET", uri + "?key=k").status == 401)
    let owner: [(name: String, value: String)] = [("Authorization", "Bearer owner")]
    let patched = await harness.send(
      "PATCH", uri + "?updateMask=emailPrivacyConfig",
      body: Array(
        #"{"emailPrivacyConfig":{"enableImprovedEmailPrivacy":true},"signIn":{"allowDuplicateEmails":true}}"#.utf8),
      headers: owner)
    #expect(patched.json["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"]?.bool == true)
    #expect(patched.json["signIn"]?["allowDuplicateEmails"]?.bool == false, "outside the mask")
    #expect(await harness.signIn("nobody@x.io").error == "INVALID_LOGIN_CREDENTIALS")
    #expect(await harness.send("GET", uri, headers: owner).json == patched.json)
  }

  @Test("a tenant named on a client call gets its own user store (FirebaseTenantTests has the rest)")
  func tenantOnClientCall() async throws {
    let harness = try FirebaseHarness()
    let anonymous = await harness.call("signUp", ["tenantId": "t1", "returnSecureToken": true])
    #expect(anonymous.status == 200)
    #expect(firebaseClaims(anonymous.string("idToken"))["firebase"]?["tenant"] == "t1")
  }
}
