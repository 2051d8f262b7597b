import Foundation
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Web console: notices, account kinds, times and texts")
struct ConsoleHonestTests {
  static func get(_ emulator: Emulator, _ uri: String) async -> String {
    let response = await emulator.handle(ConsoleSafetyTests.request("GET", uri))
    return String(decoding: response.body, as: UTF8.self)
  }

  @Test("a notice is one of a fixed set named by its code; text in the URL is never shown")
  func notices() async throws {
    let emu = try TestEmulator()
    let id = try #require(
      await emu.send("POST", "admin/users", json: ["email": "n@x.io"], bearer: emu.serviceRoleKey).json["id"]?.string)
    let forged = await Self.get(emu.emulator, "/_/accounts/supabase/\(id)?done=Your+account+is+compromised")
    #expect(!forged.contains("compromised") && !forged.contains("class=\"notice\""))
    let hostile = await Self.get(emu.emulator, "/_/faults?done=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E")
    #expect(!hostile.contains("onerror") && !hostile.contains("class=\"notice\""))
    #expect(await Self.get(emu.emulator, "/_/?done=nope").contains("class=\"notice\"") == false)
    let banned = await emu.emulator.handle(
      ConsoleSafetyTests.request("POST", "/_/accounts/supabase/\(id)/disable", form: "token=\(EmulatorConsole.token)"))
    let location = banned.headers.first { $0.name == "Location" }?.value ?? ""
    #expect(location.hasSuffix("?done=banned"))
    #expect(await Self.get(emu.emulator, location).contains("<p class=\"notice\" role=\"status\">Banned.</p>"))
    for notice in ConsoleNotice.allCases { #expect(ConsoleNotice.markup(notice.rawValue).contains(notice.message)) }
  }

  @Test("the faults page names the latency flag as it is spelled")
  func flags() async throws {
    let emu = try TestEmulator()
    let page = await Self.get(emu.emulator, "/_/faults")
    #expect(page.contains("<code>--latency-ms</code>") && !page.contains("<code>--latency</code>"))
  }

  @Test("a soft-deleted account is named so, and nothing says a password would sign in")
  func softDeleted() async throws {
    let emu = try TestEmulator()
    let id = try #require(
      await emu.send(
        "POST", "admin/users", json: ["email": "gone@x.io", "password": "hunter22", "email_confirm": true],
        bearer: emu.serviceRoleKey
      ).json["id"]?.string)
    let deleted = await emu.send(
      "DELETE", "admin/users/\(id)", json: ["should_soft_delete": true], bearer: emu.serviceRoleKey)
    #expect(deleted.status == 200)
    let page = await Self.get(emu.emulator, "/_/accounts/supabase/\(id)")
    #expect(page.contains("<title>Deleted account \(id)"))
    #expect(page.contains("(soft delete)") && !page.contains("Nothing stops a password sign-in"))
    #expect(!page.contains("No e-mail identity"))
    #expect(await emu.signIn("gone@x.io").errorCode == "invalid_credentials")
    #expect(await Self.get(emu.emulator, "/_/?side=supabase").contains("(deleted account)"))
  }

  @Test("an anonymous account is named so on both sides, with one consistent fact")
  func anonymous() async throws {
    let emu = try TestEmulator { $0.anonymousSignIns = true }
    let id = try #require(await emu.send("POST", "signup", json: [:]).json["user"]?["id"]?.string)
    let page = await Self.get(emu.emulator, "/_/accounts/supabase/\(id)")
    #expect(page.contains("<title>Anonymous account \(id)") && page.contains("Anonymous account: no e-mail"))
    #expect(!page.contains("E-mail not confirmed") && !page.contains("No e-mail identity"))
    #expect(await Self.get(emu.emulator, "/_/?side=supabase").contains("(anonymous account)"))
    let fb = try FirebaseHarness()
    let uid = await fb.call("signUp", ["returnSecureToken": true]).string("localId")
    let fbPage = await Self.get(fb.emulator, "/_/accounts/firebase/\(uid)")
    #expect(fbPage.contains("<title>Anonymous account \(uid)") && !fbPage.contains("No password: no password"))
    #expect(await Self.get(fb.emulator, "/_/?side=firebase").contains("(anonymous account)"))
  }

  @Test("every time is UTC with its zone in a <time> element; Firebase's epoch numbers are shown as times")
  func times() async throws {
    #expect(ConsoleTime.milliseconds(iso: "2026-12-07T06:43:28.123456Z") == 1_796_625_808_123)
    #expect(ConsoleTime.milliseconds(iso: "2026-12-07T08:43:28+02:00") == 1_796_625_808_000)
    #expect(ConsoleTime.milliseconds(iso: "yesterday") == nil)
    #expect(
      ConsoleTime.markup(milliseconds: 1_796_625_808_123)
        == #"<time datetime="2026-12-07T06:43:28.123Z" title="2026-12-07T06:43:28.123Z">2026-12-07 06:43:28 UTC</time>"#
    )
    #expect(ConsoleTime.markup(.string("<b>"), unit: .iso) == "&lt;b&gt;")
    let fb = try FirebaseHarness()
    let signedUp = await fb.signUp("t@x.io")
    let uid = signedUp.string("localId")
    _ = await fb.call("signInWithPassword", ["email": "t@x.io", "password": "secret1", "returnSecureToken": true])
    let user = await fb.admin("accounts:lookup", ["localId": [.string(uid)]]).json["users"]?[0]
    let lastLogin = try #require(user?["lastLoginAt"]?.string)
    let validSince = try #require(user?["validSince"]?.string)
    let page = await Self.get(fb.emulator, "/_/accounts/firebase/\(uid)")
    let facts = try #require(page.components(separatedBy: "<h2>").first)
    #expect(!facts.contains(">\(lastLogin)<") && !facts.contains(">\(validSince)<"))
    let lastText = ConsoleTime.text(milliseconds: Int64(lastLogin)!)
    #expect(facts.contains("<th scope=\"row\">lastLoginAt</th><td><time datetime=") && facts.contains(lastText))
    #expect(facts.contains(ConsoleTime.text(milliseconds: Int64(validSince)! * 1000)))
    #expect(page.contains("Last sign-in: <time datetime="))
    let emu = try TestEmulator()
    let id = try #require(
      await emu.send("POST", "admin/users", json: ["email": "s@x.io"], bearer: emu.serviceRoleKey).json["id"]?.string)
    let sbPage = await Self.get(emu.emulator, "/_/accounts/supabase/\(id)")
    #expect(sbPage.contains("<th scope=\"row\">created_at</th><td><time datetime=\""))
    #expect(sbPage.contains(" UTC</time>"))
  }

  @Test("an account's texts are shown beside its mails, whatever form the number takes")
  func texts() async throws {
    let emu = try TestEmulator()
    #expect(await emu.send("POST", "otp", json: ["phone": "+1 555 123 4567", "channel": "sms"]).status == 200)
    let users = await emu.send("GET", "admin/users", bearer: emu.serviceRoleKey).json["users"]
    let id = try #require(users?[0]?["id"]?.string)
    let code = try #require(emu.emulator.outbox.messages().last?.code)
    let page = await Self.get(emu.emulator, "/_/accounts/supabase/\(id)")
    let table = try #require(page.components(separatedBy: "id=\"messages\"").last)
    #expect(table.contains("<td>+15551234567</td><td>sms</td><td></td><td><code>\(code)</code>"))
    #expect(ConsoleAccountSections.phoneDigits("+1 (555) 123-4567") == "15551234567")
  }
}
