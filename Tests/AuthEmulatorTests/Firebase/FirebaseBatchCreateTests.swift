import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Firebase accounts:batchCreate")
struct FirebaseBatchCreateTests {
  @Test func importsAccountsAndReportsBadEntriesByIndex() async throws {
    let harness = try FirebaseHarness()
    await harness.signUp("taken@x.io")
    let reply = await harness.admin(
      "accounts:batchCreate",
      [
        "users": [
          [
            "localId": "u1", "email": "One@x.io", "emailVerified": true, "rawPassword": "secret1", "displayName": "One",
            "createdAt": "1700000000000",
          ],
          ["localId": "u2", "email": "two@x.io", "disabled": true],
          ["email": "nolocal@x.io"],
          ["localId": "u4", "email": "taken@x.io"],
          ["localId": "u5", "email": "bad"],
        ]
      ])
    #expect(reply.string("kind") == "identitytoolkit#UploadAccountResponse")
    #expect(
      reply["error"] == [
        ["index": 2, "message": "localId is missing"],
        ["index": 3, "message": "((Auth Emulator does not support importing duplicate email: taken@x.io))"],
        ["index": 4, "message": "email is invalid"],
      ])
    let one = await harness.admin("accounts:lookup", ["localId": ["u1"]])
    #expect(one["users"]?[0]?["email"]?.string == "one@x.io")
    #expect(one["users"]?[0]?["emailVerified"]?.bool == true)
    #expect(one["users"]?[0]?["createdAt"]?.string == "1700000000000")
    #expect(await harness.signIn("one@x.io").status == 200)
    #expect(await harness.signIn("two@x.io", "anything").error != nil)
    let two = await harness.admin("accounts:lookup", ["email": ["two@x.io"]])
    #expect(two["users"]?[0]?["disabled"]?.bool == true)
    let listed = await harness.admin("accounts:batchGet?maxResults=10", method: "GET")
    #expect(listed["users"]?.array?.count == 3)
  }

  @Test func requestLevelChecksAndOverwrite() async throws {
    let harness = try FirebaseHarness()
    #expect(await harness.admin("accounts:batchCreate", ["users": []]).error == "MISSING_USER_ACCOUNT")
    #expect(
      await harness.admin("accounts:batchCreate", ["users": [["localId": "a"], ["localId": "a"]]]).error
        == "DUPLICATE_LOCAL_ID : a")
    #expect(
      await harness.admin(
        "accounts:batchCreate",
        [
          "sanityCheck": true,
          "users": [
            ["localId": "a", "email": "d@x.io"], ["localId": "b", "email": "d@x.io"],
          ],
        ]
      ).error == "DUPLICATE_EMAIL : d@x.io")
    _ = await harness.admin("accounts:batchCreate", ["users": [["localId": "a", "displayName": "A"]]])
    let again = await harness.admin("accounts:batchCreate", ["users": [["localId": "a", "displayName": "B"]]])
    #expect(again["error"]?[0]?["message"]?.string == "localId belongs to an existing account - can not overwrite.")
    let overwrite = await harness.admin(
      "accounts:batchCreate", ["allowOverwrite": true, "users": [["localId": "a", "displayName": "B"]]])
    #expect(overwrite["error"] == [])
    #expect(await harness.admin("accounts:lookup", ["localId": ["a"]])["users"]?[0]?["displayName"]?.string == "B")
    // Without OAuth (an API key only) the project path is refused.
    let keyOnly = await harness.send(
      "POST", FirebaseHarness.toolkit + "projects/\(harness.project)/accounts:batchCreate?key=k",
      body: Array(#"{"users":[{"localId":"z"}]}"#.utf8))
    #expect(keyOnly.status == 400 || keyOnly.status == 401 || keyOnly.status == 403)
    #expect(await harness.admin("accounts:lookup", ["localId": ["z"]])["users"] == nil)
  }
}
