import AuthTestSupport
import Foundation
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Firebase securetoken and /emulator/v1 endpoints")
struct FirebaseEmulatorTests {
  @Test func refreshAnswersInSnakeCaseStrings() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    let refreshToken = created.string("refreshToken")
    let decoded = try #require(Data(base64Encoded: refreshToken))
    let record = try JSON.parse(bytes: Array(decoded))
    #expect(record["_AuthEmulatorRefreshToken"]?.string == "DO NOT MODIFY")
    #expect(record["projectId"]?.string == "demo-test")
    harness.clock.advance(60)
    let reply = await harness.refresh(refreshToken)
    #expect(reply.status == 200)
    #expect(
      reply.json.object?.keys == [
        "id_token", "access_token", "expires_in", "refresh_token", "token_type",
        "user_id", "project_id",
      ])
    #expect(reply.string("expires_in") == "3600" && reply.string("token_type") == "Bearer")
    #expect(reply.string("project_id") == "12345" && reply.string("user_id") == created.string("localId"))
    #expect(reply["id_token"] == reply["access_token"])
    let claims = firebaseClaims(reply.string("id_token"))
    #expect(claims["auth_time"] == firebaseClaims(created.string("idToken"))["auth_time"], "refresh keeps auth_time")
  }

  @Test func refreshAcceptsJSONAndSnakeOrCamelKeys() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    let body: JSON = ["grantType": "refresh_token", "refreshToken": created["refreshToken"] ?? ""]
    let reply = await harness.send(
      "POST", "/securetoken.googleapis.com/v1/token", body: body.bytes,
      headers: [("Content-Type", "application/json"), ("x-goog-api-key", "k")])
    #expect(reply.status == 200)
  }

  @Test func refreshErrors() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    #expect(await harness.refresh("%%%garbage").error == "INVALID_REFRESH_TOKEN")
    let form = { (items: [(String, String)]) in Array(FormCoding.encode(items).utf8) }
    let uri = "/securetoken.googleapis.com/v1/token?key=k"
    let headers: [(name: String, value: String)] = [("Content-Type", "application/x-www-form-urlencoded")]
    #expect(await harness.send("POST", uri, body: form([]), headers: headers).error == "MISSING_GRANT_TYPE")
    #expect(
      await harness.send("POST", uri, body: form([("grant_type", "password")]), headers: headers).error
        == "INVALID_GRANT_TYPE")
    #expect(
      await harness.send("POST", uri, body: form([("grant_type", "refresh_token")]), headers: headers).error
        == "MISSING_REFRESH_TOKEN")
    let foreign = FirebaseTokens.refreshToken(
      localId: created.string("localId"), provider: "password", projectId: "other")
    #expect(await harness.refresh(foreign).error == "INVALID_REFRESH_TOKEN")
    let noKey = await harness.send("POST", "/securetoken.googleapis.com/v1/token", body: form([]), headers: headers)
    #expect(noKey.status == 403)
  }

  @Test func utilityEndpointsNeedNoKey() async throws {
    let harness = try FirebaseHarness()
    let ready = await harness.send("GET", "/")
    #expect(ready.json["authEmulator"]?["ready"]?.bool == true)
    let config = await harness.send("GET", "/emulator/v1/projects/demo-test/config")
    #expect(
      config.json == [
        "signIn": ["email": ["enabled": true, "passwordRequired": true], "allowDuplicateEmails": false],
        "emailPrivacyConfig": ["enableImprovedEmailPrivacy": false],
      ])
    let patched = await harness.patchConfig(["signIn": ["allowDuplicateEmails": true]])
    #expect(patched.json["signIn"]?["allowDuplicateEmails"]?.bool == true)
    #expect(patched.json["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"]?.bool == false)
    let other = await harness.send("GET", "/emulator/v1/projects/other-project/config")
    #expect(other.json["signIn"]?["allowDuplicateEmails"]?.bool == false)
    #expect(await harness.send("GET", "/emulator/v1/projects/demo-test/oobCodes").json == ["oobCodes": []])
  }

  @Test func privacyFlagSetsOnlyTheDefaultProject() async throws {
    let harness = try FirebaseHarness(emailPrivacy: true)
    let own = await harness.send("GET", "/emulator/v1/projects/demo-test/config")
    #expect(own.json["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"]?.bool == true)
    let other = await harness.send("GET", "/emulator/v1/projects/other/config")
    #expect(other.json["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"]?.bool == false)
  }

  @Test func transportErrors() async throws {
    let harness = try FirebaseHarness()
    let malformed = await harness.send(
      "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
      body: Array("{\"email\":".utf8), headers: [("Content-Type", "application/json")])
    #expect(malformed.status == 400)
    #expect(malformed.error?.hasPrefix("Invalid JSON payload received. ") == true)
    #expect(malformed.json["error"]?["status"]?.string == "INVALID_ARGUMENT")
    #expect(malformed.json["error"]?["errors"]?[0]?["reason"]?.string == "parseError")
    let tooLarge = await harness.emulator.handle(
      ServerRequest(
        method: "POST", uri: "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", bodyTooLarge: true))
    #expect(tooLarge.status == 413)
    let unknown = await harness.send("POST", "/identitytoolkit.googleapis.com/v1/accounts:nope?key=k")
    #expect(unknown.status == 404 && unknown.json["error"]?["status"]?.string == "NOT_FOUND")
    let wrongType = await harness.call("signUp", ["email": true])
    #expect(wrongType.error == "Invalid JSON payload received. /email should be string")
    #expect(
      await harness.call("signUp", ["email": "a@x.io", "password": 1_234_567]).status == 200, "numbers become strings")
    let unimplemented = await harness.call("signInWithGameCenter", [:])
    #expect(unimplemented.status == 501)
    #expect(await harness.send("GET", "/auth/v1/health").status == 200, "not the Firebase side's path")
  }

  @Test func corsIsReflected() async throws {
    let harness = try FirebaseHarness()
    let preflight = await harness.send(
      "OPTIONS", "/identitytoolkit.googleapis.com/v1/accounts:signUp",
      headers: [
        ("Origin", "http://example.com"),
        ("Access-Control-Request-Headers", "content-type,x-goog-api-key"),
      ])
    #expect(preflight.status == 204)
    #expect(preflight.headers.contains { $0.name == "Access-Control-Allow-Origin" && $0.value == "http://example.com" })
    #expect(
      preflight.headers.contains {
        $0.name == "Access-Control-Allow-Headers" && $0.value == "content-type,x-goog-api-key"
      })
  }

  @Test func legacyV3PathsAreRewritten() async throws {
    let harness = try FirebaseHarness()
    let reply = await harness.send(
      "POST", "/www.googleapis.com/identitytoolkit/v3/relyingparty/signupNewUser?key=k",
      body: Array(#"{"email":"v3@x.io","password":"secret1"}"#.utf8))
    #expect(reply.status == 200 && reply.string("email") == "v3@x.io")
    let signIn = await harness.send(
      "POST", "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPassword?key=k",
      body: Array(#"{"email":"v3@x.io","password":"secret1"}"#.utf8))
    #expect(signIn["registered"]?.bool == true)
  }
}
