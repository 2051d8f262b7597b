import AuthTestSupport
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("/user, /logout and bearer checks")
struct UserTests {
  @Test("GET /user with the access token; PUT /user merges data (null deletes), email change is pending")
  func getAndUpdate() async throws {
    let emu = try TestEmulator()
    let session = await emu.signUp("u@example.com", data: ["a": 1, "b": 2]).json
    let user = await emu.send("GET", "user", bearer: session.accessToken)
    #expect(user.status == 200)
    #expect(user.json["email"] == "u@example.com")
    let updated = await emu.send("PUT", "user", json: ["data": ["b": nil, "c": 3]], bearer: session.accessToken)
    #expect(updated.json["user_metadata"] == ["a": 1, "c": 3, "email_verified": true])
    let change = await emu.send("PUT", "user", json: ["email": "New@example.com"], bearer: session.accessToken)
    #expect(change.json["email"] == "u@example.com")
    #expect(change.json["new_email"] == "new@example.com")
    #expect(emu.outbox("new@example.com").last?.kind == "email_change")
    let admin = await emu.send("PUT", "user", json: ["app_metadata": ["x": 1]], bearer: session.accessToken)
    #expect(admin.json == ["code": "not_admin", "message": "Updating app_metadata requires admin privileges"])
    await emu.signUp("taken@example.com")
    let taken = await emu.send("PUT", "user", json: ["email": "taken@example.com"], bearer: session.accessToken)
    #expect(taken.errorCode == "email_exists")
  }

  @Test("bearer errors: none, forged, expired, anon key, deleted user")
  func bearerErrors() async throws {
    let emu = try TestEmulator()
    let none = await emu.send("GET", "user")
    #expect(none.status == 401)
    #expect(none.json == ["code": "no_authorization", "message": "This endpoint requires a valid Bearer token"])
    let forged = EmulatorJWT.signHS256(["sub": "x", "role": "authenticated"], secret: "another-secret")
    let bad = await emu.send("GET", "user", bearer: forged)
    #expect(bad.status == 403)
    #expect(bad.errorCode == "bad_jwt")
    let anon = await emu.send("GET", "user", bearer: emu.anonKey)
    #expect(anon.json == ["code": "bad_jwt", "message": "invalid claim: missing sub claim"])
    let session = await emu.signUp("gone@example.com").json
    emu.clock.advance(3601)
    let expired = await emu.send("GET", "user", bearer: session.accessToken)
    #expect(
      expired.json["message"]
        == "invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired")
    emu.clock.advance(-3601)
    let id = try #require(session["user"]?["id"]?.string)
    _ = await emu.send("DELETE", "admin/users/\(id)", bearer: emu.serviceRoleKey)
    let deleted = await emu.send("GET", "user", bearer: session.accessToken)
    #expect(deleted.json == ["code": "user_not_found", "message": "User from sub claim in JWT does not exist"])
  }

  @Test("logout scopes: 204; the access token then fails with 403 session_not_found")
  func logoutScopes() async throws {
    let emu = try TestEmulator()
    let a = await emu.signUp("l@example.com").json
    let b = await emu.signIn("l@example.com").json
    let c = await emu.signIn("l@example.com").json
    let others = await emu.send("POST", "logout?scope=others", bearer: a.accessToken)
    #expect(others.status == 204)
    #expect(others.body.isEmpty)
    #expect(await emu.send("GET", "user", bearer: a.accessToken).status == 200)
    #expect(await emu.send("GET", "user", bearer: b.accessToken).errorCode == "session_not_found")
    #expect(await emu.send("GET", "user", bearer: c.accessToken).status == 403)
    let d = await emu.signIn("l@example.com").json
    #expect(await emu.send("POST", "logout?scope=local", bearer: a.accessToken).status == 204)
    #expect(await emu.send("GET", "user", bearer: d.accessToken).status == 200)
    #expect(await emu.send("POST", "logout", bearer: d.accessToken).status == 204)
    let after = await emu.send("GET", "user", bearer: d.accessToken)
    #expect(
      after.json == [
        "code": "session_not_found", "message": "Session from session_id claim in JWT does not exist",
      ])
    let scope = await emu.send("POST", "logout?scope=all", bearer: emu.signIn("l@example.com").json.accessToken)
    #expect(scope.json["message"] == "Unsupported logout scope \"all\"")
  }

  @Test("routing: 404 text, 405 empty, 413, settings, health")
  func routing() async throws {
    let emu = try TestEmulator()
    let missing = await emu.send("GET", "nope")
    #expect(missing.status == 404)
    #expect(missing.text == "404 page not found\n")
    #expect(missing.header("Content-Type") == "text/plain; charset=utf-8")
    let method = await emu.send("DELETE", "signup")
    #expect(method.status == 405)
    #expect(method.body.isEmpty)
    let big = await emu.emulator.handle(.init(method: "POST", uri: "/auth/v1/signup", bodyTooLarge: true))
    #expect(big.status == 413)
    #expect(String(decoding: big.body, as: UTF8.self).contains("request_entity_too_large"))
    let settings = await emu.send("GET", "settings")
    #expect(settings.json["external"]?.object?.count == 26)
    #expect(settings.json["mailer_autoconfirm"] == true)
    #expect(await emu.send("GET", "health").json["name"] == "GoTrue")
  }
}

@Suite("CORS")
struct CORSTests {
  @Test("preflight 204 and exposed headers for browser clients")
  func cors() async throws {
    let emu = try TestEmulator()
    let preflight = await emu.send("OPTIONS", "token", headers: [("Origin", "http://localhost:3000")])
    #expect(preflight.status == 204)
    #expect(preflight.header("Access-Control-Allow-Origin") == "http://localhost:3000")
    #expect(preflight.header("Access-Control-Allow-Headers")?.contains("X-Supabase-Api-Version") == true)
    let health = await emu.send("GET", "health", headers: [("Origin", "http://localhost:3000")])
    #expect(health.header("Access-Control-Expose-Headers") == "X-Total-Count, Link, X-Supabase-Api-Version")
    #expect(await emu.send("GET", "health").header("Access-Control-Allow-Origin") == nil)
  }
}
