import AuthTestSupport
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("POST /signup")
struct SignupTests {
  @Test("autoconfirm (default): a session, confirmed user, lower-cased e-mail, claims in GoTrue order")
  func autoconfirmSession() async throws {
    let emu = try TestEmulator()
    let response = await emu.signUp("Alice@Example.COM", data: ["full_name": "Alice"])
    #expect(response.status == 200)
    let body = response.json
    #expect(body["token_type"] == "bearer")
    #expect(body["expires_in"] == 3600)
    #expect(body.refreshToken.count == 12)
    #expect(body["weak_password"] == nil)
    let user = try #require(body["user"])
    #expect(user["email"] == "alice@example.com")
    #expect(user["email_confirmed_at"] != nil)
    #expect(user["user_metadata"] == ["email_verified": true, "full_name": "Alice"])
    #expect(user["app_metadata"] == ["provider": "email", "providers": ["email"]])
    #expect(user["identities"]?.array?.count == 1)
    let claims = body.claims
    #expect(
      claims.object?.keys == [
        "iss", "sub", "aud", "exp", "iat", "email", "phone", "app_metadata", "user_metadata", "role", "aal", "amr",
        "session_id", "is_anonymous",
      ])
    #expect(claims["iss"] == "http://emulator.test/auth/v1")
    #expect(claims["aud"] == "authenticated")
    #expect(claims["phone"] == "")
    #expect(claims["role"] == "authenticated")
    #expect(claims["amr"]?[0]?["method"] == "password")
    #expect(body["expires_at"]?.int == claims["exp"]?.int)
    #expect(EmulatorJWT.verifyHS256(body.accessToken, secret: TestEmulator.secret) != nil)
    #expect(emu.outbox("alice@example.com").isEmpty)
  }

  @Test("autoconfirm: a duplicate is 422 user_already_exists")
  func autoconfirmDuplicate() async throws {
    let emu = try TestEmulator()
    await emu.signUp("bob@example.com")
    let again = await emu.signUp("BOB@example.com")
    #expect(again.status == 422)
    #expect(again.json == ["code": "user_already_exists", "message": "User already registered"])
    #expect(again.header("x-sb-error-code") == "user_already_exists")
    #expect(again.header("X-Supabase-Api-Version") == "2024-01-01")
  }

  @Test("confirmation on: a bare user and a signup mail with OTP, token_hash and link")
  func confirmationBareUser() async throws {
    let emu = try TestEmulator(confirmEmail: true)
    let response = await emu.signUp("carol@example.com", data: ["k": 1])
    #expect(response.status == 200)
    let user = response.json
    #expect(user["access_token"] == nil)
    #expect(user["email_confirmed_at"] == nil)
    #expect(user["confirmation_sent_at"] != nil)
    #expect(user["identities"]?.array?.count == 1)
    let mail = try #require(emu.outbox("carol@example.com").last)
    #expect(mail.kind == "signup")
    #expect(mail.code.count == 6 && mail.code.allSatisfy(\.isNumber))
    let hash = EmulatorJWT.sha224Hex("carol@example.com" + mail.code)
    #expect(
      mail.link == "http://emulator.test/auth/v1/verify?token=\(hash)&type=signup&redirect_to=http://127.0.0.1:3000")
    let signIn = await emu.signIn("carol@example.com")
    #expect(signIn.status == 400)
    #expect(signIn.errorCode == "email_not_confirmed")
  }

  @Test("confirmation on: a confirmed duplicate gets an obfuscated fake user, no mail")
  func confirmationObfuscatedDuplicate() async throws {
    let emu = try TestEmulator(confirmEmail: true)
    let created = await emu.send(
      "POST", "admin/users", json: ["email": "dave@example.com", "password": "hunter22", "email_confirm": true],
      bearer: emu.serviceRoleKey)
    #expect(created.status == 200)
    let response = await emu.signUp("dave@example.com", data: ["x": "y"])
    #expect(response.status == 200)
    let fake = response.json
    #expect(fake["id"] != created.json["id"])
    #expect(fake["role"] == "")
    #expect(fake["identities"] == [])
    #expect(fake["user_metadata"] == ["x": "y"])
    #expect(fake["email_confirmed_at"] == nil)
    #expect(fake["created_at"] == fake["confirmation_sent_at"])
    #expect(emu.outbox("dave@example.com").isEmpty)
  }

  @Test("confirmation on: an unconfirmed duplicate re-sends (429 inside 60 s) and answers the real user")
  func confirmationUnconfirmedDuplicate() async throws {
    let emu = try TestEmulator(confirmEmail: true)
    let first = await emu.signUp("erin@example.com")
    emu.clock.advance(0.5)
    let tooSoon = await emu.signUp("erin@example.com")
    #expect(tooSoon.status == 429)
    #expect(tooSoon.json["message"] == "For security purposes, you can only request this after 59 seconds.")
    emu.clock.advance(60)
    let again = await emu.signUp("erin@example.com", "another-password")
    #expect(again.status == 200)
    #expect(again.json["id"] == first.json["id"])
    #expect(emu.outbox("erin@example.com").count == 2)
  }

  @Test("password policy: 6 bytes minimum (weak_password + reasons), 72 maximum")
  func passwordPolicy() async throws {
    let emu = try TestEmulator()
    let weak = await emu.signUp("f@example.com", "12345")
    #expect(weak.status == 422)
    #expect(
      weak.json == [
        "code": "weak_password", "message": "Password should be at least 6 characters.",
        "weak_password": ["reasons": ["length"]],
      ])
    let legacy = await emu.send("POST", "signup", json: ["email": "f@example.com", "password": "12345"], dated: false)
    #expect(
      legacy.json == [
        "code": 422, "error_code": "weak_password", "msg": "Password should be at least 6 characters.",
        "weak_password": ["reasons": ["length"]],
      ])
    #expect(legacy.header("X-Supabase-Api-Version") == nil)
    let long = await emu.signUp("f@example.com", String(repeating: "é", count: 37))  // 74 bytes
    #expect(long.status == 400)
    #expect(long.json["message"] == "Password cannot be longer than 72 characters")
    let empty = await emu.signUp("f@example.com", "")
    #expect(empty.json["message"] == "Signup requires a valid password")
  }

  @Test("e-mail validation and the other input errors")
  func inputErrors() async throws {
    let emu = try TestEmulator()
    let bad = await emu.signUp(" a@b.co")
    #expect(bad.status == 400)
    #expect(bad.json["message"] == "Unable to validate email address: invalid format")
    #expect(await emu.signUp("a@b").status == 200)
    let long = await emu.signUp(String(repeating: "a", count: 250) + "@b.com")
    #expect(long.json["message"] == "An email address is too long")
    let anonymous = await emu.send("POST", "signup", json: ["password": "hunter22"])
    #expect(anonymous.status == 422)
    #expect(anonymous.errorCode == "anonymous_provider_disabled")
    let broken = await emu.send("POST", "signup", raw: "{\"email\":")
    #expect(broken.status == 400)
    #expect(broken.errorCode == "bad_json")
    let wrongType = await emu.send("POST", "signup", json: ["email": 5, "password": "hunter22"])
    #expect(wrongType.errorCode == "bad_json")
  }

  @Test(
    "e-mail format rule",
    arguments: [
      ("a@b", true), ("first.last+tag@sub.example.co", true), ("x@a-b.c", true), ("nobody", false),
      ("@b.com", false), ("a@-b.com", false), ("a@b-.com", false), ("a b@c.com", false), ("a@b..com", false),
      ("a@b.com ", false),
    ])
  func emailFormat(email: String, valid: Bool) {
    #expect(GoTrueRules.isValidEmailFormat(email) == valid)
  }
}
