import AuthTestSupport
import Foundation
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Web console: an account's sessions, revoked one by one or everywhere")
struct ConsoleSessionsTests {
  static let hostile = "<img src=x onerror=alert(1)>"

  /// A password sign-in from a browser of its own (`User-Agent`) and address (`X-Forwarded-For`).
  static func signIn(_ emu: TestEmulator, agent: String, from address: String) async -> TestResponse {
    await emu.send(
      "POST", "token?grant_type=password", json: ["email": "s@x.io", "password": "hunter22"],
      headers: [("User-Agent", agent), ("X-Forwarded-For", address)])
  }

  static func refreshToken(_ response: TestResponse) -> String { response.json["refresh_token"]?.string ?? "" }

  @Test("Supabase: each session with its facts; the revoked one no longer refreshes, the other does")
  func supabaseSessions() async throws {
    let emu = try TestEmulator()
    let created = await emu.send(
      "POST", "admin/users", json: ["email": "s@x.io", "password": "hunter22", "email_confirm": true],
      bearer: emu.serviceRoleKey)
    let id = try #require(created.json["id"]?.string)
    let phone = await Self.signIn(emu, agent: "PhoneApp/1.0", from: "198.51.100.7")
    emu.clock.advance(60)
    let laptop = await Self.signIn(emu, agent: Self.hostile, from: "203.0.113.9, 10.0.0.1")
    emu.clock.advance(60)
    let refreshed = await emu.send(
      "POST", "token?grant_type=refresh_token", json: ["refresh_token": .string(Self.refreshToken(laptop))],
      headers: [("User-Agent", "Laptop/2.0"), ("X-Forwarded-For", "203.0.113.10")])
    #expect(refreshed.status == 200)

    var page = await ConsoleHonestTests.get(emu.emulator, "/_/accounts/supabase/\(id)")
    #expect(page.contains("Session 1 of 2") && page.contains("Session 2 of 2"))
    #expect(page.contains("PhoneApp/1.0") && page.contains("198.51.100.7"))
    // A refresh records the browser and address it came from, and when.
    #expect(page.contains("Laptop/2.0") && page.contains("203.0.113.10") && !page.contains("203.0.113.9"))
    #expect(page.contains("2 issued, 1 revoked") && page.contains("<time datetime="))
    #expect(page.contains("<td>never</td>"), "the phone's session was never refreshed")
    #expect(page.contains("<button type=\"submit\">Sign out everywhere</button>"))

    let phoneSession = try #require(phone.json.claims["session_id"]?.string)
    let revoked = await ConsoleEditTests.post(
      emu.emulator, "/_/accounts/supabase/\(id)/revoke-session", [("session", phoneSession)])
    #expect(revoked.status == 303)
    #expect(await emu.refresh(Self.refreshToken(phone)).errorCode == "refresh_token_not_found")
    let phoneUser = await emu.send("GET", "user", bearer: phone.json["access_token"]?.string)
    #expect(phoneUser.status == 403, "the revoked session's access token is refused")
    let still = await emu.refresh(Self.refreshToken(refreshed))
    #expect(still.status == 200)
    page = await ConsoleHonestTests.get(emu.emulator, "/_/accounts/supabase/\(id)?done=session-revoked")
    #expect(page.contains(ConsoleNotice.sessionRevoked.message) && page.contains("Session 1 of 1"))
    #expect(!page.contains("PhoneApp/1.0"))
    let again = await ConsoleEditTests.post(
      emu.emulator, "/_/accounts/supabase/\(id)/revoke-session", [("session", phoneSession)])
    #expect(again.status == 404 && again.text.contains("That session has ended already."))

    let everywhere = await ConsoleEditTests.post(emu.emulator, "/_/accounts/supabase/\(id)/sign-out-everywhere", [])
    #expect(everywhere.status == 303)
    #expect(await emu.refresh(Self.refreshToken(still)).errorCode == "refresh_token_not_found")
    page = await ConsoleHonestTests.get(emu.emulator, "/_/accounts/supabase/\(id)")
    #expect(page.contains("id=\"no-sessions\""))
    let audit = await emu.send("GET", "admin/audit", bearer: emu.serviceRoleKey).json.array ?? []
    #expect(audit.filter { $0["payload"]?["action"]?.string == "logout" }.count == 2)
  }

  @Test("a session's user agent, address and last refresh survive a restart with --state")
  func persistence() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sessions-\(UUID().uuidString).sqlite")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let emu = try TestEmulator(store: try SQLiteDocumentStore(path: path))
    let created = await emu.send(
      "POST", "admin/users", json: ["email": "s@x.io", "password": "hunter22", "email_confirm": true],
      bearer: emu.serviceRoleKey)
    let id = try #require(created.json["id"]?.string)
    let signedIn = await Self.signIn(emu, agent: "PhoneApp/1.0", from: "198.51.100.7")
    emu.clock.advance(30)
    _ = await emu.send(
      "POST", "token?grant_type=refresh_token", json: ["refresh_token": .string(Self.refreshToken(signedIn))],
      headers: [("User-Agent", "PhoneApp/1.1"), ("X-Forwarded-For", "198.51.100.8")])
    let before = try #require(emu.emulator.supabase.sessionListings(ofUser: id).first?.session)
    emu.emulator.store.close()
    let reopened = try TestEmulator(store: try SQLiteDocumentStore(path: path))
    let after = try #require(reopened.emulator.supabase.sessionListings(ofUser: id).first?.session)
    #expect(after.userAgent == "PhoneApp/1.1" && after.ip == "198.51.100.8")
    #expect(after.refreshedAt == before.refreshedAt && after.refreshedAt == before.createdAt + 30_000_000)
    reopened.emulator.store.close()
  }

  @Test("a hostile user agent shows as its characters; a post without the token ends nothing")
  func hostileAndUnguarded() async throws {
    let emu = try TestEmulator()
    let created = await emu.send(
      "POST", "admin/users", json: ["email": "s@x.io", "password": "hunter22", "email_confirm": true],
      bearer: emu.serviceRoleKey)
    let id = try #require(created.json["id"]?.string)
    let signedIn = await Self.signIn(emu, agent: Self.hostile, from: "\"><script>alert(1)</script>")
    let page = await ConsoleHonestTests.get(emu.emulator, "/_/accounts/supabase/\(id)")
    #expect(page.contains("&lt;img src=x onerror=alert(1)&gt;") && !page.contains(Self.hostile))
    #expect(page.contains("&quot;&gt;&lt;script&gt;") && !page.contains("<script>alert"))
    let session = try #require(signedIn.json.claims["session_id"]?.string)
    for (path, form) in [("revoke-session", "session=\(session)"), ("sign-out-everywhere", "")] {
      let forged = ConsoleSafetyTests.request(
        "POST", "/_/accounts/supabase/\(id)/\(path)", form: form, headers: [("Origin", "http://127.0.0.1:9099")])
      #expect(await emu.emulator.handle(forged).status == 403)
      let crossSite = ConsoleSafetyTests.request(
        "POST", "/_/accounts/supabase/\(id)/\(path)", form: "token=\(EmulatorConsole.token)&" + form,
        headers: [("Origin", "https://evil.example")])
      #expect(await emu.emulator.handle(crossSite).status == 403)
    }
    #expect(await emu.refresh(Self.refreshToken(signedIn)).status == 200)
  }

  @Test("Firebase: no sessions, said so; sign out everywhere sets validSince, and like production a refresh fails")
  func firebaseSignOutEverywhere() async throws {
    for likeProduction in [false, true] {
      let fb = try FirebaseHarness()
      fb.emulator.mode.set(likeProduction: likeProduction)
      let uid = await fb.signUp("f@x.io").string("localId")
      let signedIn = await fb.signIn("f@x.io")
      fb.clock.advance(5)
      var page = await ConsoleHonestTests.get(fb.emulator, "/_/accounts/firebase/\(uid)")
      #expect(page.contains("Firebase Auth keeps no sessions") && page.contains("Tokens valid since"))
      #expect(page.contains(likeProduction ? "As in production" : "As in the official emulator"))
      let one = await ConsoleEditTests.post(fb.emulator, "/_/accounts/firebase/\(uid)/revoke-session", [])
      #expect(one.status == 404)
      let done = await ConsoleEditTests.post(fb.emulator, "/_/accounts/firebase/\(uid)/sign-out-everywhere", [])
      #expect(done.status == 303)
      let user = await fb.admin("accounts:lookup", ["localId": [.string(uid)]]).json["users"]?[0]
      let now = Int(fb.clock.now().timeIntervalSince1970)
      #expect(user?["validSince"]?.string == String(now))
      let refresh = await fb.send(
        "POST", "/securetoken.googleapis.com/v1/token?key=k",
        body: Array(
          FormCoding.encode([("grant_type", "refresh_token"), ("refresh_token", signedIn.string("refreshToken"))]).utf8),
        headers: [("Content-Type", "application/x-www-form-urlencoded")])
      #expect(refresh.status == (likeProduction ? 400 : 200))
      page = await ConsoleHonestTests.get(fb.emulator, "/_/accounts/firebase/\(uid)?done=tokens-revoked")
      #expect(page.contains(ConsoleNotice.tokensRevoked.message))
      #expect(page.contains(ConsoleTime.text(milliseconds: Int64(now) * 1000)))
    }
  }

  @Test("Firebase: sign out everywhere on a tenant's account revokes in that tenant")
  func tenantSignOut() async throws {
    let fb = try FirebaseHarness()
    let tenant = try await FirebaseTenantTests().createTenant(fb)
    let uid = await fb.admin("tenants/\(tenant)/accounts", ["email": "t@x.io", "password": "secret1"]).string("localId")
    fb.clock.advance(5)
    let page = await ConsoleHonestTests.get(fb.emulator, "/_/accounts/firebase/\(uid)?tenant=\(tenant)")
    #expect(page.contains("sign-out-everywhere") && page.contains("name=\"tenant\" value=\"\(tenant)\""))
    let done = await ConsoleEditTests.post(
      fb.emulator, "/_/accounts/firebase/\(uid)/sign-out-everywhere", [("tenant", tenant)])
    #expect(done.status == 303)
    let user = await fb.admin("tenants/\(tenant)/accounts:lookup", ["localId": [.string(uid)]]).json["users"]?[0]
    #expect(user?["validSince"]?.string == String(Int(fb.clock.now().timeIntervalSince1970)))
  }
}
