import AuthTestSupport
import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Supabase /admin/audit")
struct AuditTests {
  func actions(_ reply: TestResponse) -> [String] {
    reply.json.array?.compactMap { $0["payload"]?["action"]?.string } ?? []
  }

  @Test("what happens is recorded as GoTrue records it, newest first; failed passwords are not")
  func trail() async throws {
    let emu = try TestEmulator()
    let key = emu.serviceRoleKey
    let session = await emu.signUp("ada@example.com", data: ["full_name": "Ada Lovelace"]).json
    emu.clock.advance(1)
    #expect(await emu.signIn("ada@example.com", "wrong-password").status == 400)
    let login = await emu.signIn("ada@example.com").json
    emu.clock.advance(1)
    _ = await emu.refresh(login.refreshToken)
    _ = await emu.send("POST", "recover", json: ["email": "ada@example.com"])
    _ = await emu.send("PUT", "user", json: ["password": "new-password-1"], bearer: session.accessToken)
    _ = await emu.send("POST", "logout", bearer: session.accessToken)
    let all = await emu.send("GET", "admin/audit", bearer: key)
    #expect(all.status == 200)
    #expect(
      actions(all) == [
        "logout", "user_modified", "user_updated_password", "user_recovery_requested", "token_revoked",
        "token_refreshed",
        "login", "login", "user_signedup",
      ])
    #expect(all.header("X-Total-Count") == "9")
    let entry = try #require(all.json[0])
    #expect(entry.object?.keys == ["id", "payload", "created_at", "ip_address"])
    let payload = try #require(entry["payload"]?.object)
    #expect(payload.keys == ["action", "actor_id", "actor_name", "actor_username", "actor_via_sso", "log_type"])
    #expect(payload["actor_username"] == "ada@example.com")
    #expect(payload["actor_name"] == "Ada Lovelace")
    #expect(payload["log_type"] == "account")
    #expect(all.json.array?.last?["payload"]?["traits"] == ["provider": "email"])
  }

  @Test("query=author:|action:|type: (ILIKE contains), paginated like users; a bad scope is 400")
  func query() async throws {
    let emu = try TestEmulator()
    let key = emu.serviceRoleKey
    await emu.signUp("ada@example.com")
    await emu.signUp("bob@example.com")
    _ = await emu.signIn("ada@example.com")
    let ada = await emu.send("GET", "admin/audit?query=author:ADA@", bearer: key)
    #expect(actions(ada) == ["login", "login", "user_signedup"])
    #expect(actions(await emu.send("GET", "admin/audit?query=action:user_signedup", bearer: key)).count == 2)
    #expect(actions(await emu.send("GET", "admin/audit?query=type:team", bearer: key)).count == 2)
    let page = await emu.send("GET", "admin/audit?per_page=2&page=2", bearer: key)
    #expect(page.json.array?.count == 2)
    #expect(page.header("X-Total-Count") == "5")
    #expect(
      page.header("Link")
        == #"</auth/v1/admin/audit?page=3&per_page=2>; rel="next", </auth/v1/admin/audit?page=3&per_page=2>; rel="last""#
    )
    let bad = await emu.send("GET", "admin/audit?query=who:ada", bearer: key)
    #expect(bad.status == 400)
    #expect(bad.json == ["code": "validation_failed", "message": "Invalid query scope: who:ada"])
    #expect(await emu.send("GET", "admin/audit", bearer: emu.anonKey).errorCode == "not_admin")
  }

  @Test("admin actions: the actor is the key's role; factor events carry their traits and the address")
  func adminAndFactors() async throws {
    var rig = try await FactorRig()
    let emu = rig.emu
    let key = emu.serviceRoleKey
    _ = try await rig.enroll()
    try await rig.verifyNow()
    let created = await emu.send(
      "POST", "admin/users", json: ["email": "made@example.com", "password": "secret-1"], bearer: key)
    let id = try #require(created.json["id"]?.string)
    _ = await emu.send("PUT", "admin/users/\(id)", json: ["email_confirm": true], bearer: key)
    _ = await emu.send("DELETE", "admin/users/\(id)", bearer: key)
    let trail = await emu.send("GET", "admin/audit", bearer: key)
    #expect(actions(trail).prefix(3) == ["user_deleted", "user_modified", "user_signedup"])
    let deleted = try #require(trail.json[0]?["payload"])
    #expect(deleted["actor_username"] == "service_role")
    #expect(deleted["actor_id"] == "00000000-0000-0000-0000-000000000000")
    #expect(deleted["traits"]?["user_email"] == "made@example.com")
    let factors = await emu.send("GET", "admin/audit?query=type:factor", bearer: key)
    #expect(actions(factors) == ["verification_attempted", "challenge_created", "factor_in_progress"])
    #expect(factors.json[0]?["ip_address"] == "127.0.0.1")
    #expect(factors.json[0]?["payload"]?["traits"]?["factor_type"] == "totp")
    let forwarded = await emu.send(
      "POST", "factors/\(rig.factorID)/challenge", json: [:], bearer: rig.token,
      headers: [("X-Forwarded-For", "203.0.113.9, 10.0.0.1")])
    #expect(forwarded.status == 200)
    #expect(
      await emu.send("GET", "admin/audit?query=action:challenge_created", bearer: key).json[0]?["ip_address"]
        == "203.0.113.9")
  }

  @Test("entries survive a restart with --state")
  func persistence() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let emu = try TestEmulator(store: try SQLiteDocumentStore(path: path))
    await emu.signUp("ada@example.com")
    emu.emulator.store.close()
    let reopened = try TestEmulator(store: try SQLiteDocumentStore(path: path))
    _ = await reopened.signIn("ada@example.com")
    #expect(
      actions(await reopened.send("GET", "admin/audit", bearer: reopened.serviceRoleKey)) == [
        "login", "login", "user_signedup",
      ])
    reopened.emulator.store.close()
  }

  @Test("the trail is bounded: past 11,000 entries the oldest go, down to the newest 10,000")
  func bounded() async throws {
    let emu = try TestEmulator()
    try emu.emulator.supabase.state.transaction { data in
      for index in 0..<10_999 { data.recordAudit("login", actor: .admin(role: "r\(index)"), at: Micros(index)) }
    }
    #expect(emu.emulator.supabase.state.read { $0.audit.entries.count } == 10_999)
    try emu.emulator.supabase.state.transaction { data in
      data.recordAudit("logout", actor: .admin(role: "last"), at: 11_000)
    }
    let entries = emu.emulator.supabase.state.read { $0.audit.entries }
    #expect(entries.count == 10_000)
    #expect(entries.first?.payload["actor_username"] == "r1000")
    #expect(entries.last?.payload["action"] == "logout")
  }
}
