import AuthTestSupport
import HTTPServerKit
import JSONKit
import OneTimeCode
import Testing

@testable import AuthEmulator

@Suite("Web console: create, faults and limits")
struct ConsoleActionsTests {
  static func post(_ emu: TestEmulator, _ uri: String, _ form: String) async -> (status: Int, text: String) {
    let request = ConsoleSafetyTests.request(
      "POST", uri, form: "token=\(EmulatorConsole.token)&" + form, headers: [("Origin", "http://127.0.0.1:9099")])
    let response = await emu.emulator.handle(request)
    return (response.status, String(decoding: response.body, as: UTF8.self))
  }

  @Test("create with a TOTP factor: verified in the admin API, and the shown secret makes valid codes")
  func createWithTOTP() async throws {
    let emu = try TestEmulator()
    let created = await Self.post(
      emu, "/_/create", "side=supabase&email=t%40x.io&password=secret-123&name=Tee&confirmed=yes&totp=yes")
    #expect(created.status == 201)
    let secret = try #require(created.text.split(separator: "id=\"totp-secret\">").last?.split(separator: "<").first)
    #expect(created.text.contains("<img class=\"qr\" src=\"data:image/svg+xml;base64,"))
    let id = try #require(
      await emu.send("GET", "admin/users", bearer: emu.serviceRoleKey).json["users"]?[0]?["id"]?.string)
    let user = await emu.send("GET", "admin/users/\(id)", bearer: emu.serviceRoleKey).json
    #expect(user["factors"]?[0]?["status"]?.string == "verified")
    #expect(user["email_confirmed_at"]?.string != nil && user["user_metadata"]?["full_name"]?.string == "Tee")
    #expect(TOTP.code(secret: String(secret), at: emu.clock.now()) != nil)
    let removed = await Self.post(emu, "/_/accounts/supabase/\(id)/remove-factors", "")
    #expect(removed.status == 303)
    #expect(await emu.send("GET", "admin/users/\(id)", bearer: emu.serviceRoleKey).json["factors"] == nil)
  }

  @Test("faults: a preset added and cleared from the console is the live fault list")
  func faults() async throws {
    let emu = try TestEmulator()
    #expect(
      await Self.post(emu, "/_/faults/add", "method=POST&path=%2Fauth%2Fv1%2Ftoken&times=2&preset=html502").status
        == 303)
    #expect(
      emu.emulator.faults.all == [EmulatorFault(method: "POST", path: "/auth/v1/token", times: 2, preset: .html502)])
    #expect(await Self.post(emu, "/_/faults/clear", "").status == 303)
    #expect(emu.emulator.faults.all.isEmpty)
  }

  @Test("like production, the faults page shows the hosted limits and their use")
  func limits() async throws {
    let emu = try TestEmulator { $0.likeProduction = true }
    let response = await emu.emulator.handle(ConsoleSafetyTests.request("GET", "/_/faults"))
    let text = String(decoding: response.body, as: UTF8.self)
    #expect(text.contains("Supabase mail (built-in mail)</th><td>0 of 2 this hour"))
    #expect(text.contains("<td>Sign-in (/token)</td><td>150 per 5 min</td><td>none</td>"))
    let plain = try TestEmulator()
    let off = await plain.emulator.handle(ConsoleSafetyTests.request("GET", "/_/faults"))
    #expect(String(decoding: off.body, as: UTF8.self).contains("Off: the emulator runs without"))
  }
}
