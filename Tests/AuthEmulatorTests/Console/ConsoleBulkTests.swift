import Foundation
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Web console: many accounts at once, and delete all on a side")
struct ConsoleBulkTests {
  static let project = "demo-test"
  static let toolkit = "/identitytoolkit.googleapis.com/v1/projects/demo-test/"

  static func emulator() throws -> TestEmulator { try TestEmulator { $0.project = project } }

  static func supabaseUser(_ emu: TestEmulator, _ email: String) async throws -> String {
    let created = await emu.send("POST", "admin/users", json: ["email": .string(email)], bearer: emu.serviceRoleKey)
    return try #require(created.json["id"]?.string)
  }

  /// An admin call as the Admin SDK makes it (`Bearer owner`), on the project or a tenant.
  static func firebase(_ emu: TestEmulator, _ operation: String, _ body: JSON, tenant: String? = nil) async -> JSON {
    let path = Self.toolkit + (tenant.map { "tenants/\($0)/" } ?? "") + operation
    return await emu.send(
      "POST", path, json: body, bearer: "owner", dated: false, headers: [("Content-Type", "application/json")]
    ).json
  }

  static func tenant(_ emu: TestEmulator) async throws -> String {
    let created = await emu.send(
      "POST", "/identitytoolkit.googleapis.com/v2/projects/\(project)/tenants", json: ["displayName": "Shop"],
      bearer: "owner", dated: false, headers: [("Content-Type", "application/json")])
    return String(try #require(created.json["name"]?.string?.split(separator: "/").last))
  }

  static func get(_ emu: TestEmulator, _ uri: String) async -> (status: Int, text: String) {
    let response = await emu.emulator.handle(ConsoleSafetyTests.request("GET", uri))
    return (response.status, String(decoding: response.body, as: UTF8.self))
  }

  @Test("the list has a tick per row and the bulk buttons; the confirmation page lists the selection, escaped")
  func selectionPage() async throws {
    let emu = try Self.emulator()
    let first = try await Self.supabaseUser(emu, "one@x.io")
    let second = try await Self.supabaseUser(emu, "two@x.io")
    let list = await Self.get(emu, "/_/?side=supabase")
    #expect(list.text.contains("<form method=\"get\" action=\"/_/bulk\" id=\"bulk\">"))
    #expect(list.text.contains("<input type=\"checkbox\" name=\"id\" value=\"\(first)\" aria-label=\"Select one@x.io"))
    #expect(list.text.contains("name=\"action\" value=\"disable\">Ban…</button>"))
    #expect(list.text.contains("<input type=\"checkbox\" id=\"select-all\" aria-label=\"Select every account on"))
    #expect(list.text.contains("href=\"/_/delete-all?side=supabase\">Delete all Supabase accounts…</a>"))
    let hostile = "%3Cimg+src%3Dx+onerror%3Dalert(1)%3E"
    let page = await Self.get(emu, "/_/bulk?side=supabase&action=disable&id=\(first)&id=\(second)&id=\(hostile)")
    #expect(page.status == 200)
    #expect(page.text.contains("Ban these 3 Supabase accounts?"))
    #expect(page.text.contains("<td>one@x.io</td>") && page.text.contains("<td>two@x.io</td>"))
    #expect(page.text.contains("(no such account)") && !page.text.contains("<img src=x"))
    #expect(page.text.contains("name=\"token\" value=\"\(EmulatorConsole.token)\""))
    #expect(page.text.contains("id=\"bulk-duration\"") && page.text.contains(">Yes, ban 3 accounts</button>"))
    #expect(await Self.get(emu, "/_/bulk?side=supabase&action=disable").status == 400)
    #expect(await Self.get(emu, "/_/bulk?side=supabase&action=explode&id=\(first)").status == 400)
  }

  @Test("a bulk POST needs the token, a selection and the confirmation; unknown ids are reported, others done")
  func supabaseBulk() async throws {
    let emu = try Self.emulator()
    let first = try await Self.supabaseUser(emu, "one@x.io")
    let second = try await Self.supabaseUser(emu, "two@x.io")
    let key = emu.serviceRoleKey
    func banned(_ ids: String...) async -> [Bool] {
      var out: [Bool] = []
      for id in ids {
        out.append(await emu.send("GET", "admin/users/\(id)", bearer: key).json["banned_until"]?.string != nil)
      }
      return out
    }
    let form = "side=supabase&action=disable&confirm=yes&duration=1h&id=\(first)&id=\(second)"
    let noToken = await emu.emulator.handle(
      ConsoleSafetyTests.request("POST", "/_/bulk", form: form, headers: [("Origin", "http://127.0.0.1:9099")]))
    #expect(noToken.status == 403)
    let crossSite = await emu.emulator.handle(
      ConsoleSafetyTests.request(
        "POST", "/_/bulk", form: "token=\(EmulatorConsole.token)&" + form, headers: [("Origin", "http://evil.example")]
      ))
    #expect(crossSite.status == 403)
    #expect(await banned(first, second) == [false, false])
    #expect(await ConsoleActionsTests.post(emu, "/_/bulk", "side=supabase&action=disable&confirm=yes").status == 400)
    #expect(
      await ConsoleActionsTests.post(emu, "/_/bulk", form.replacingOccurrences(of: "1h", with: "99y")).status == 400)
    let unconfirmed = await ConsoleActionsTests.post(emu, "/_/bulk", "side=supabase&action=delete&id=\(first)")
    #expect(unconfirmed.status == 303)
    let done = await ConsoleActionsTests.post(emu, "/_/bulk", form)
    #expect(done.status == 303)
    #expect(await banned(first, second) == [true, true])
    let unknown = "00000000-0000-4000-8000-00000000dead"
    let partly = await ConsoleActionsTests.post(
      emu, "/_/bulk", "side=supabase&action=confirm&confirm=yes&id=\(first)&id=\(unknown)")
    #expect(partly.status == 200)
    #expect(partly.text.contains("done for 1 of 2 accounts") && partly.text.contains(unknown))
    let user = await emu.send("GET", "admin/users/\(first)", bearer: key).json
    #expect(user["email_confirmed_at"]?.string != nil)
    let unbanned = await ConsoleActionsTests.post(
      emu, "/_/bulk", "side=supabase&action=enable&confirm=yes&id=\(first)&id=\(second)")
    #expect(unbanned.status == 303)
    #expect(await banned(first, second) == [false, false])
    let deleted = await ConsoleActionsTests.post(emu, "/_/bulk", "side=supabase&action=delete&confirm=yes&id=\(first)")
    #expect(deleted.status == 303)
    #expect(await emu.send("GET", "admin/users/\(first)", bearer: key).status == 404)
    #expect(await emu.send("GET", "admin/users/\(second)", bearer: key).status == 200)
  }

  @Test("Firebase: disable, confirm and delete a selection in a tenant, through the admin API")
  func firebaseBulk() async throws {
    let emu = try Self.emulator()
    let tenant = try await Self.tenant(emu)
    let first = try #require(
      await Self.firebase(emu, "accounts", ["email": "a@x.io"], tenant: tenant)["localId"]?.string)
    let second = try #require(
      await Self.firebase(emu, "accounts", ["email": "b@x.io"], tenant: tenant)["localId"]?.string)
    let list = await Self.get(emu, "/_/?side=firebase&tenant=\(tenant)")
    #expect(list.text.contains("id=\"bulk\"><input type=\"hidden\" name=\"side\" value=\"firebase\">"))
    #expect(list.text.contains("<input type=\"hidden\" name=\"tenant\" value=\"\(tenant)\">"))
    let ids = "id=\(first)&id=\(second)&id=nobody&id=%3Cimg+src%3Dx%3E"
    let disabled = await ConsoleActionsTests.post(
      emu, "/_/bulk", "side=firebase&tenant=\(tenant)&action=disable&confirm=yes&" + ids)
    #expect(disabled.status == 200 && disabled.text.contains("done for 2 of 4") && disabled.text.contains("nobody"))
    #expect(disabled.text.contains("&lt;img src=x&gt;") && !disabled.text.contains("<img src=x>"))
    let confirmed = await ConsoleActionsTests.post(
      emu, "/_/bulk", "side=firebase&tenant=\(tenant)&action=confirm&confirm=yes&id=\(first)&id=\(second)")
    #expect(confirmed.status == 303)
    let looked = await Self.firebase(
      emu, "accounts:lookup", ["localId": [.string(first), .string(second)]], tenant: tenant)
    let users = looked["users"]?.array ?? []
    #expect(users.count == 2 && users.allSatisfy { $0["disabled"]?.bool == true && $0["emailVerified"]?.bool == true })
    let deleted = await ConsoleActionsTests.post(
      emu, "/_/bulk", "side=firebase&tenant=\(tenant)&action=delete&confirm=yes&id=\(first)")
    #expect(deleted.status == 303)
    let left = await Self.firebase(
      emu, "accounts:lookup", ["localId": [.string(first), .string(second)]], tenant: tenant)
    #expect(left["users"]?.array?.count == 1)
  }

  @Test("delete all: the typed name must be the side's; a tenant and the other backend keep their accounts")
  func deleteAll() async throws {
    let emu = try Self.emulator()
    let supabaseId = try await Self.supabaseUser(emu, "stays@x.io")
    let tenant = try await Self.tenant(emu)
    _ = await Self.firebase(emu, "accounts", ["email": "project@x.io"])
    _ = await Self.firebase(emu, "accounts", ["email": "tenant@x.io"], tenant: tenant)
    func count(_ tenant: String?) async -> Int {
      let path = (tenant.map { "tenants/\($0)/" } ?? "") + "accounts:batchGet?maxResults=100"
      return await emu.send("GET", Self.toolkit + path, bearer: "owner", dated: false).json["users"]?.array?.count ?? 0
    }
    let page = await Self.get(emu, "/_/delete-all?side=firebase")
    #expect(page.status == 200 && page.text.contains("Type <strong>Firebase</strong> to confirm"))
    #expect(page.text.contains("Delete all 1 account of the Firebase project?"))
    #expect(await Self.get(emu, "/_/delete-all?side=firebase&tenant=nope").status == 404)
    let list = await Self.get(emu, "/_/?side=firebase&tenant=\(tenant)")
    #expect(list.text.contains("Delete all Firebase accounts of tenant \(tenant)…"))
    for wrong in ["", "firebase", "Supabase", tenant] {
      let refused = await ConsoleActionsTests.post(emu, "/_/delete-all", "side=firebase&name=\(wrong)")
      #expect(refused.status == 400, "\(wrong)")
    }
    #expect(await count(nil) == 1)
    let noToken = await emu.emulator.handle(
      ConsoleSafetyTests.request("POST", "/_/delete-all", form: "side=firebase&name=Firebase"))
    #expect(noToken.status == 403)
    #expect(await count(nil) == 1)
    let done = await ConsoleActionsTests.post(emu, "/_/delete-all", "side=firebase&name=Firebase")
    #expect(done.status == 303)
    #expect(await count(nil) == 0)
    #expect(await count(tenant) == 1)
    #expect(
      await ConsoleActionsTests.post(emu, "/_/delete-all", "side=firebase&tenant=\(tenant)&name=Shop").status == 400)
    #expect(
      await ConsoleActionsTests.post(emu, "/_/delete-all", "side=firebase&tenant=\(tenant)&name=\(tenant)").status
        == 303)
    #expect(await count(tenant) == 0)
    #expect(await emu.send("GET", "admin/users/\(supabaseId)", bearer: emu.serviceRoleKey).status == 200)
    #expect(await ConsoleActionsTests.post(emu, "/_/delete-all", "side=supabase&name=Supa").status == 400)
    #expect(await ConsoleActionsTests.post(emu, "/_/delete-all", "side=supabase&name=Supabase").status == 303)
    #expect(await emu.send("GET", "admin/users/\(supabaseId)", bearer: emu.serviceRoleKey).status == 404)
    let after = await Self.get(emu, "/_/?side=supabase&done=all-deleted")
    #expect(after.text.contains("Every account of this side deleted.") && after.text.contains("0 accounts"))
  }
}
