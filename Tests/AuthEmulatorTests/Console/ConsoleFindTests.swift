import Foundation
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Web console: filters, paging, phone search and titles")
struct ConsoleFindTests {
  static func get(_ emulator: Emulator, _ uri: String) async -> String {
    await ConsoleHonestTests.get(emulator, uri)
  }

  static func title(_ page: String) -> String {
    page.components(separatedBy: "<title>").last?.components(separatedBy: "</title>").first ?? ""
  }

  @Test("a search that reads as a phone number finds it in any form")
  func phoneSearch() {
    var query = ConsoleListQuery()
    for form in ["+1 555 123 4567", "15551234567", "+1 (555) 123-4567", "555 123"] {
      query.search = form
      #expect(query.matches(id: "x", email: "", name: nil, phone: "15551234567"), "\(form)")
      #expect(query.matches(id: "x", email: "", name: nil, phone: "+15551234567"), "\(form)")
    }
    query.search = "+1 555 999"
    #expect(!query.matches(id: "x", email: "", name: nil, phone: "15551234567"))
    #expect(ConsoleListQuery.phoneDigits("ada 1") == [])
  }

  @Test("filters combine with each other and with the search; titles follow the page's state")
  func supabaseFilters() async throws {
    let emu = try TestEmulator()
    let key = emu.serviceRoleKey
    for index in 0..<4 {
      var body = JSONObject()
      body["email"] = .string("f\(index)@x.io")
      body["email_confirm"] = .bool(index % 2 == 0)
      if index >= 2 { body["phone"] = .string("+1 555 000 000\(index)") }
      _ = await emu.send("POST", "admin/users", json: .object(body), bearer: key)
    }
    // A confirmed phone (no e-mail) counts as confirmed.
    _ = await emu.send("POST", "admin/users", json: ["phone": "+15550009999", "phone_confirm": true], bearer: key)
    let confirmed = await Self.get(emu.emulator, "/_/?side=supabase&confirmed=1")
    #expect(confirmed.contains("3 accounts (confirmed)"))
    let both = await Self.get(emu.emulator, "/_/?side=supabase&confirmed=1&phone=1&q=%40x.io")
    #expect(both.contains("1 account matching “@x.io” (confirmed, has a phone)") && both.contains("f2@x.io"))
    #expect(
      Self.title(both) == "Supabase accounts matching “@x.io”, confirmed, has a phone · page 1 of 1 · authsh emulator")
    let phone = await Self.get(emu.emulator, "/_/?side=supabase&q=%2B1+555+000+0003")
    #expect(phone.contains("1 account matching") && phone.contains("f3@x.io"))
    let provider = await Self.get(emu.emulator, "/_/?side=supabase&provider=phone")
    #expect(provider.contains("1 account ") || provider.contains("accounts "))
    #expect(await Self.get(emu.emulator, "/_/?side=supabase&anonymous=1").contains("0 accounts"))
    let hostile = await Self.get(emu.emulator, "/_/?side=supabase&q=%3Cimg+src%3Dx+onerror%3Dalert(1)%3E")
    #expect(!hostile.contains("<img src=x") && Self.title(hostile).contains("&lt;img src=x onerror=alert(1)&gt;"))
    let id = try #require(
      await emu.send("GET", "admin/users", bearer: key).json["users"]?.array?.first {
        $0["email"]?.string == "f0@x.io"
      }?["id"]?.string)
    #expect(
      Self.title(await Self.get(emu.emulator, "/_/accounts/supabase/\(id)")).hasPrefix("f0@x.io · Supabase account"))
  }

  @Test("Firebase: disabled, second factor and phone filters; phone search with a plus")
  func firebaseFilters() async throws {
    let fb = try FirebaseHarness()
    _ = await fb.admin("accounts", ["email": "a@x.io", "password": "secret1"])
    _ = await fb.admin("accounts", ["phoneNumber": "+15551230000"])
    let disabled = await fb.admin("accounts", ["email": "d@x.io"]).string("localId")
    _ = await fb.admin("accounts:update", ["localId": .string(disabled), "disableUser": true])
    let phone = await Self.get(fb.emulator, "/_/?side=firebase&q=%2B1+555+123")
    #expect(phone.contains("1 account matching"))
    #expect(await Self.get(fb.emulator, "/_/?side=firebase&disabled=1").contains("d@x.io"))
    #expect(await Self.get(fb.emulator, "/_/?side=firebase&disabled=1").contains("1 account (disabled)"))
    #expect(
      await Self.get(fb.emulator, "/_/?side=firebase&provider=password").contains("1 account (provider password)"))
    #expect(await Self.get(fb.emulator, "/_/?side=firebase&mfa=1").contains("0 accounts"))
    // The phone-only account is confirmed: Firebase keeps only verified numbers.
    #expect(await Self.get(fb.emulator, "/_/?side=firebase&confirmed=1&phone=1").contains("1 account "))
  }

  @Test("first, last and jump-to paging carry the search and filters")
  func paging() async throws {
    let emu = try TestEmulator()
    for index in 0..<120 {
      _ = await emu.send(
        "POST", "admin/users", json: ["email": .string("p\(index)@x.io"), "email_confirm": true],
        bearer: emu.serviceRoleKey)
    }
    let middle = await Self.get(emu.emulator, "/_/?side=supabase&confirmed=1&q=p&page=2")
    #expect(middle.contains("page 2 of 3"))
    #expect(middle.contains(">« First page</a>") && middle.contains(">Last page »</a>"))
    #expect(middle.contains("q=p&amp;confirmed=1&amp;sort=created&amp;order=newest&amp;page=3\">Last page »"))
    #expect(middle.contains("<input type=\"hidden\" name=\"confirmed\" value=\"1\">"))
    #expect(middle.contains("id=\"page\" name=\"page\" type=\"number\" min=\"1\" max=\"3\" value=\"2\""))
    let first = await Self.get(emu.emulator, "/_/?side=supabase")
    #expect(!first.contains("First page") && first.contains("Last page"))
  }
}
