import AuthTestSupport
import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Firebase accounts:signUp and accounts:signInWithPassword")
struct FirebaseSignInTests {
  @Test func signUpReturnsTokensAndLowercasedEmail() async throws {
    let harness = try FirebaseHarness()
    let reply = await harness.signUp("Alice@Example.com", name: "Alice")
    #expect(reply.string("kind") == "identitytoolkit#SignupNewUserResponse")
    #expect(reply.string("email") == "alice@example.com")
    #expect(reply.string("displayName") == "Alice")
    #expect(reply.string("expiresIn") == "3600")
    #expect(reply.string("localId").count == 28)
    let token = reply.string("idToken")
    #expect(token.hasSuffix("."))
    let claims = firebaseClaims(token)
    #expect(claims["iss"]?.string == "https://securetoken.google.com/demo-test")
    #expect(claims["aud"]?.string == "demo-test")
    #expect(claims["sub"]?.string == reply.string("localId"))
    #expect(claims["user_id"]?.string == reply.string("localId"))
    #expect(claims["email"]?.string == "alice@example.com")
    #expect(claims["email_verified"]?.bool == false)
    #expect(claims["name"]?.string == "Alice")
    #expect(claims["firebase"]?["sign_in_provider"]?.string == "password")
    #expect(claims["firebase"]?["identities"]?["email"] == ["alice@example.com"])
    let issuedAt = try #require(claims["iat"]?.int)
    #expect(claims["exp"]?.int == issuedAt + 3600)
    #expect(claims["auth_time"]?.int == issuedAt)
    let header = try #require(Base64URL.decode(String(token.split(separator: ".")[0])))
    #expect(try JSON.parse(bytes: header)["alg"]?.string == "none")
    #expect(reply.text.contains("\n  \"kind\""), "pretty-printed with two spaces")
  }

  @Test func signUpErrorsFollowTheEmulatorOrder() async throws {
    let harness = try FirebaseHarness()
    await harness.signUp("a@x.io")
    #expect(await harness.call("signUp", ["email": "a@x.io", "password": "123"]).error == "EMAIL_EXISTS")
    #expect(
      await harness.call("signUp", ["email": "b@x.io", "password": "123"]).error
        == "WEAK_PASSWORD : Password should be at least 6 characters")
    #expect(await harness.call("signUp", ["email": "not-an-email", "password": "123"]).error == "INVALID_EMAIL")
    #expect(await harness.call("signUp", ["password": "secret1"]).error == "MISSING_EMAIL")
    #expect(await harness.call("signUp", ["email": "c@x.io"]).error == "MISSING_PASSWORD")
    #expect(await harness.call("signUp", ["email": "", "password": ""]).error == "INVALID_EMAIL")
    #expect(
      await harness.call("signUp", ["localId": "x", "email": "d@x.io", "password": "secret1"]).error
        == "UNEXPECTED_PARAMETER : User ID")
    let weak = await harness.call("signUp", ["email": "e@x.io", "password": "12345"])
    #expect(weak.status == 400)
    #expect(weak.json["error"]?["status"] == nil)
    #expect(weak.json["error"]?["errors"]?[0]?["reason"]?.string == "invalid")
    #expect(weak.json["error"]?["errors"]?[0]?["domain"]?.string == "global")
  }

  @Test func emptySignUpCreatesAnAnonymousUser() async throws {
    let harness = try FirebaseHarness()
    let reply = await harness.call("signUp", ["displayName": "ignored"])
    #expect(reply.status == 200)
    #expect(reply["email"] == nil && reply["displayName"] == nil)
    let claims = firebaseClaims(reply.string("idToken"))
    #expect(claims["provider_id"]?.string == "anonymous")
    #expect(claims["firebase"]?["sign_in_provider"]?.string == "anonymous")
    #expect(claims["email"] == nil)
  }

  @Test func anonymousUserCanLinkAPassword() async throws {
    let harness = try FirebaseHarness()
    let anonymous = await harness.call("signUp")
    let linked = await harness.call(
      "signUp", ["idToken": anonymous["idToken"] ?? "", "email": "l@x.io", "password": "secret1"])
    #expect(linked.string("localId") == anonymous.string("localId"))
    #expect(firebaseClaims(linked.string("idToken"))["firebase"]?["sign_in_provider"]?.string == "password")
    #expect(await harness.signIn("l@x.io").status == 200)
  }

  @Test func signInSucceedsAndUpdatesAuthTime() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    harness.clock.advance(10)
    let reply = await harness.signIn("A@X.io")
    #expect(reply.status == 200)
    #expect(reply.string("kind") == "identitytoolkit#VerifyPasswordResponse")
    #expect(reply["registered"]?.bool == true)
    #expect(reply.string("email") == "a@x.io")
    #expect(reply.string("localId") == created.string("localId"))
    #expect(reply["displayName"] == nil)
    let signUpTime = firebaseClaims(created.string("idToken"))["auth_time"]?.int ?? 0
    #expect(firebaseClaims(reply.string("idToken"))["auth_time"]?.int == signUpTime + 10)
  }

  @Test func signInErrorsWithPrivacyOff() async throws {
    let harness = try FirebaseHarness()
    await harness.signUp("a@x.io")
    #expect(await harness.signIn("nobody@x.io").error == "EMAIL_NOT_FOUND")
    #expect(await harness.signIn("a@x.io", "wrong-pw").error == "INVALID_PASSWORD")
    #expect(await harness.call("signInWithPassword", ["password": "secret1"]).error == "MISSING_EMAIL")
    #expect(await harness.call("signInWithPassword", ["email": "", "password": "x"]).error == "INVALID_EMAIL")
    #expect(await harness.call("signInWithPassword", ["email": "a@x.io", "password": ""]).error == "MISSING_PASSWORD")
    #expect(await harness.call("signInWithPassword", ["email": "bad", "password": ""]).error == "INVALID_EMAIL")
  }

  @Test func signInErrorsWithPrivacyOn() async throws {
    let harness = try FirebaseHarness(emailPrivacy: true)
    let created = await harness.signUp("a@x.io")
    #expect(await harness.signIn("nobody@x.io").error == "INVALID_LOGIN_CREDENTIALS")
    #expect(await harness.signIn("a@x.io", "wrong-pw").error == "INVALID_LOGIN_CREDENTIALS")
    _ = await harness.admin("accounts:update", ["localId": created["localId"] ?? "", "disableUser": true])
    #expect(await harness.signIn("a@x.io", "wrong-pw").error == "USER_DISABLED")
  }

  @Test func disabledUserIsRejectedBeforeThePassword() async throws {
    let harness = try FirebaseHarness()
    let created = await harness.signUp("a@x.io")
    _ = await harness.admin("accounts:update", ["localId": created["localId"] ?? "", "disableUser": true])
    #expect(await harness.signIn("a@x.io", "wrong-pw").error == "USER_DISABLED")
    #expect(await harness.signIn("a@x.io").error == "USER_DISABLED")
  }

  @Test func privacyCanBeToggledThroughTheConfigEndpoint() async throws {
    let harness = try FirebaseHarness()
    let patched = await harness.patchConfig(["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]])
    #expect(patched.json["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"]?.bool == true)
    #expect(patched.json["signIn"]?["allowDuplicateEmails"]?.bool == false)
    #expect(await harness.signIn("nobody@x.io").error == "INVALID_LOGIN_CREDENTIALS")
    _ = await harness.patchConfig(["emailPrivacyConfig": ["enableImprovedEmailPrivacy": false]])
    #expect(await harness.signIn("nobody@x.io").error == "EMAIL_NOT_FOUND")
  }

  @Test func passwordsAreStoredAsTheProjectsScryptHashes() async throws {
    let store = FirebaseMemoryStore()
    let harness = try FirebaseHarness(store: store)
    await harness.signUp("a@x.io", "my-secret-pw")
    let record = try #require(store.documents(FirebaseProject.usersTable).first)
    let hash = try #require(record["passwordHash"]?.string)
    #expect(hash.hasPrefix("$fbscrypt$v=1,n=8,r=4,p=1,"))
    #expect(StoredPasswordHash.check("my-secret-pw", against: hash) == .match)
    #expect(!record.compactText.contains("my-secret-pw"))
  }
}
