import AuthTestSupport
import FoundationEssentials
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Firebase revocation, OAuth bearers and the localId index")
struct FirebaseRevokeTests {
  @Test func revokingEndsIdTokensIssuedBefore() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    let localId = created.string("localId")
    #expect(await harness.refresh(created.string("refreshToken")).status == 200)
    harness.clock.advance(2)
    // What the Admin SDK's revokeRefreshTokens sends: validSince = now in seconds.
    let now = Int(harness.clock.now().timeIntervalSince1970)
    let revoked = await harness.admin(
      "accounts:update", ["localId": .string(localId), "validSince": .string(String(now))])
    #expect(revoked.status == 200)
    // ID tokens are checked against validSince; refresh tokens stay stateless in the default mode,
    // as in the official emulator (--like-production ends them: FirebaseLikeProductionTests).
    #expect(await harness.refresh(created.string("refreshToken")).status == 200)
    #expect(await harness.call("lookup", ["idToken": created["idToken"] ?? ""]).error == "TOKEN_EXPIRED")
    let looked = await harness.admin("accounts:lookup", ["localId": [.string(localId)]])
    #expect(looked["users"]?[0]?["validSince"]?.string == String(now))
    // A new sign-in is not affected.
    let again = await harness.signIn("a@x.io")
    #expect(await harness.refresh(again.string("refreshToken")).status == 200)
    #expect(await harness.call("lookup", ["idToken": again["idToken"] ?? ""]).status == 200)
  }

  @Test func oauthAccessTokensAreAdminsLikeOwner() async throws {
    let harness = try FirebaseHarness()
    await harness.signUp("a@x.io")
    let path = FirebaseHarness.toolkit + "projects/\(harness.project)/accounts:lookup"
    let body = Array(#"{"email":["a@x.io"]}"#.utf8)
    for token in ["owner", "ya29.c.any-access-token"] {
      let reply = await harness.send("POST", path, body: body, headers: [("Authorization", "Bearer " + token)])
      #expect(reply["users"]?[0]?["email"]?.string == "a@x.io", "Bearer \(token)")
    }
    let bad = await harness.send("POST", path, body: body, headers: [("Authorization", "Bearer not-a-token")])
    #expect(bad.status == 401)
  }

  @Test func batchGetFollowsDeletesAndReloads() async throws {
    let store = FirebaseMemoryStore()
    let harness = try FirebaseHarness(store: store)
    for localId in ["d", "b", "a", "e", "c"] { _ = await harness.admin("accounts", ["localId": .string(localId)]) }
    _ = await harness.admin("accounts:delete", ["localId": "c"])
    func page(_ harness: FirebaseHarness, _ query: String) async -> ([String], String?) {
      let reply = await harness.admin("accounts:batchGet?" + query, method: "GET")
      return (reply["users"]?.array?.compactMap { $0["localId"]?.string } ?? [], reply["nextPageToken"]?.string)
    }
    #expect(await page(harness, "maxResults=3") == (["a", "b", "d"], "d"))
    #expect(await page(harness, "maxResults=3&nextPageToken=b") == (["d", "e"], nil))
    #expect(await page(harness, "maxResults=-1") == (["a", "b", "d", "e"], nil))
    let reloaded = try FirebaseHarness(store: store)
    #expect(await page(reloaded, "maxResults=2&nextPageToken=a") == (["b", "d"], "d"))
    _ = await reloaded.send("DELETE", "/emulator/v1/projects/\(reloaded.project)/accounts")
    #expect(await page(reloaded, "") == ([], nil))
  }
}
