import AuthTestSupport
import Foundation
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Web console: create form kept, copy buttons, ban duration")
struct ConsoleUsableTests {
  static let hostile = "<img src=x onerror=alert(1)>"

  @Test("after an error the create form keeps what was typed (escaped), but not the password")
  func createKeepsInput() async throws {
    let emu = try TestEmulator()
    _ = await emu.send("POST", "admin/users", json: ["email": "taken@x.io"], bearer: emu.serviceRoleKey)
    let name = FormCoding.encode([("name", Self.hostile + "\u{1b}[31m")])
    let answer = await ConsoleActionsTests.post(
      emu, "/_/create", "side=supabase&email=taken%40x.io&password=secret-123&totp=yes&" + name)
    #expect(answer.status == 422 || answer.status == 400)
    #expect(answer.text.contains("value=\"taken@x.io\""))
    #expect(answer.text.contains("value=\"&lt;img src=x onerror=alert(1)&gt;\u{1b}[31m\""))
    #expect(!answer.text.contains("secret-123") && !answer.text.contains(Self.hostile))
    #expect(answer.text.contains("name=\"totp\" value=\"yes\" checked"))
    #expect(!answer.text.contains("name=\"confirmed\" value=\"yes\" checked"))
  }

  @Test("a copy button carries its value as an escaped attribute and is a real button")
  func copyButton() {
    let markup = ConsoleHTML.copyButton(Self.hostile, what: "the code")
    #expect(markup.hasPrefix("<button type=\"button\" class=\"copy\" data-copy=\"&lt;img src=x onerror=alert(1)&gt;\""))
    #expect(ConsoleHTML.id("a\"b").contains("<code class=\"id\">a&quot;b</code>"))
  }

  @Test("a ban lasts the chosen duration; only Ban or Unban is offered, as the state allows")
  func banDuration() async throws {
    let emu = try TestEmulator()
    let id = try #require(
      await emu.send("POST", "admin/users", json: ["email": "b@x.io"], bearer: emu.serviceRoleKey).json["id"]?.string)
    let fresh = await ConsoleHonestTests.get(emu.emulator, "/_/accounts/supabase/\(id)")
    #expect(fresh.contains("id=\"ban-duration\"") && !fresh.contains(">Unban</button>"))
    #expect(await ConsoleActionsTests.post(emu, "/_/accounts/supabase/\(id)/disable", "duration=99y").status == 400)
    #expect(await ConsoleActionsTests.post(emu, "/_/accounts/supabase/\(id)/disable", "duration=1h").status == 303)
    let user = await emu.send("GET", "admin/users/\(id)", bearer: emu.serviceRoleKey).json
    let until = try #require(user["banned_until"].flatMap { ConsoleTime.milliseconds($0, unit: .iso) })
    let hour = Double(until) / 1000 - emu.clock.now().timeIntervalSince1970
    #expect(hour > 3590 && hour < 3610)
    let banned = await ConsoleHonestTests.get(emu.emulator, "/_/accounts/supabase/\(id)")
    #expect(banned.contains(">Unban</button>") && !banned.contains("id=\"ban-duration\""))
    emu.clock.advance(3601)
    let over = await ConsoleHonestTests.get(emu.emulator, "/_/accounts/supabase/\(id)")
    #expect(over.contains("id=\"ban-duration\""))
  }
}
