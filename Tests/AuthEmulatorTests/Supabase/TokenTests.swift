import AuthTestSupport
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("POST /token")
struct TokenTests {
  @Test("password grant: session with weak_password null; one session per login")
  func passwordGrant() async throws {
    let emu = try TestEmulator()
    await emu.signUp("a@example.com")
    let first = await emu.signIn("A@EXAMPLE.com")
    #expect(first.status == 200)
    #expect(first.json["weak_password"] == .null)
    #expect(first.text.contains(#""weak_password":null"#))
    let second = await emu.signIn("a@example.com")
    #expect(first.json.claims["session_id"] != second.json.claims["session_id"])
    #expect(first.json.refreshToken != second.json.refreshToken)
  }

  @Test("password grant: a weak but correct password still signs in and reports it")
  func weakPasswordReported() async throws {
    let emu = try TestEmulator()
    _ = await emu.send(
      "POST", "admin/users", json: ["email": "w@example.com", "password": "abc", "email_confirm": true],
      bearer: emu.serviceRoleKey)
    let response = await emu.signIn("w@example.com", "abc")
    #expect(response.status == 200)
    #expect(
      response.json["weak_password"] == [
        "message": "Password should be at least 6 characters.", "reasons": ["length"],
      ])
  }

  @Test("password grant: check order (unknown, banned before password, unconfirmed after it)")
  func checkOrder() async throws {
    let emu = try TestEmulator(confirmEmail: true)
    let unknown = await emu.signIn("nobody@example.com")
    #expect(unknown.status == 400)
    #expect(unknown.json == ["code": "invalid_credentials", "message": "Invalid login credentials"])

    await emu.signUp("u@example.com")
    let wrong = await emu.signIn("u@example.com", "not-it")
    #expect(wrong.errorCode == "invalid_credentials")
    let unconfirmed = await emu.signIn("u@example.com")
    #expect(unconfirmed.json == ["code": "email_not_confirmed", "message": "Email not confirmed"])

    let created = await emu.send(
      "POST", "admin/users",
      json: ["email": "banned@example.com", "password": "hunter22", "email_confirm": true, "ban_duration": "24h"],
      bearer: emu.serviceRoleKey)
    #expect(created.json["banned_until"] != nil)
    let banned = await emu.signIn("banned@example.com", "whatever-wrong")
    #expect(banned.json == ["code": "user_banned", "message": "User is banned"])

    let missing = await emu.send("POST", "token?grant_type=password", json: ["password": "x"])
    #expect(missing.json["message"] == "missing email or phone")
    let grant = await emu.send("POST", "token?grant_type=magic", json: [:])
    #expect(grant.json == ["code": "invalid_credentials", "message": "unsupported_grant_type"])
  }

  @Test("refresh: rotation, immediate parent returns the active token, older reuse kills the session")
  func rotationAndReuse() async throws {
    let emu = try TestEmulator()
    let session = await emu.signUp("r@example.com").json
    let t0 = session.refreshToken
    let r1 = await emu.refresh(t0)
    #expect(r1.status == 200)
    let t1 = r1.json.refreshToken
    #expect(t1 != t0 && t1.count == 12)
    #expect(r1.json.claims["session_id"] == session.claims["session_id"])
    #expect(r1.json["user"]?["email"] == "r@example.com")

    let again = await emu.refresh(t0)  // the client lost the answer: the active token again
    #expect(again.status == 200)
    #expect(again.json.refreshToken == t1)

    let t2 = await emu.refresh(t1).json.refreshToken
    #expect(!t2.isEmpty && t2 != t1)
    emu.clock.advance(1)  // GoTrue: reuse only strictly after the (zero) interval
    let reuse = await emu.refresh(t0)  // two generations old: family revoked
    #expect(reuse.status == 400)
    #expect(reuse.json == ["code": "refresh_token_already_used", "message": "Invalid Refresh Token: Already Used"])
    for token in [t1, t2] {
      #expect(await emu.refresh(token).errorCode == "refresh_token_already_used")
    }
  }

  @Test("refresh: within the reuse interval a revoked token gets a new child")
  func reuseInterval() async throws {
    let emu = try TestEmulator { $0.refreshReuseInterval = 10 }
    let t0 = await emu.signUp("ri@example.com").json.refreshToken
    let t1 = await emu.refresh(t0).json.refreshToken
    let t2 = await emu.refresh(t1).json.refreshToken
    emu.clock.advance(5)
    let child = await emu.refresh(t0)
    #expect(child.status == 200)
    #expect(![t0, t1, t2].contains(child.json.refreshToken))
    // t0 is now the parent of the active token: it gets that token again, whatever the time.
    emu.clock.advance(6)
    #expect(await emu.refresh(t0).json.refreshToken == child.json.refreshToken)
    #expect(await emu.refresh(t1).errorCode == "refresh_token_already_used")
  }

  @Test("refresh: malformed, unknown, missing")
  func refreshErrors() async throws {
    let emu = try TestEmulator()
    let short = await emu.refresh("abc")
    #expect(short.json == ["code": "validation_failed", "message": "Refresh token is not valid"])
    #expect(await emu.refresh("ABCDEFGHIJKL").errorCode == "validation_failed")
    #expect(await emu.refresh(String(repeating: "a", count: 40)).errorCode == "validation_failed")
    let unknown = await emu.refresh("abcdefghijkl")
    #expect(
      unknown.json == [
        "code": "refresh_token_not_found", "message": "Invalid Refresh Token: Refresh Token Not Found",
      ])
    // GoTrue v2.196 answers a missing or empty token like any other bad one (no OAuth-style body).
    for body: JSON in [[:], ["refresh_token": ""]] {
      let missing = await emu.send("POST", "token?grant_type=refresh_token", json: body)
      #expect(missing.status == 400)
      #expect(missing.json == ["code": "validation_failed", "message": "Refresh token is not valid"])
      let undated = await emu.send("POST", "token?grant_type=refresh_token", json: body, dated: false)
      #expect(undated.json == ["code": 400, "error_code": "validation_failed", "msg": "Refresh token is not valid"])
    }
  }

  @Test("refresh after logout: session_not_found is refresh_token_not_found (tokens are gone)")
  func refreshAfterLogout() async throws {
    let emu = try TestEmulator()
    let session = await emu.signUp("lo@example.com").json
    #expect(await emu.send("POST", "logout", bearer: session.accessToken).status == 204)
    #expect(await emu.refresh(session.refreshToken).errorCode == "refresh_token_not_found")
  }
}
