import AuthTestSupport
import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

/// `--like-production` on the GoTrue side: confirmation, the project's mail quota, per-address
/// limits on /token and /verify, and the run-time switch. (The built-in mail service, the other
/// per-address limits and CAPTCHA: `HostedLimitsTests.swift`.)
@Suite("Supabase like production")
struct SupabaseLikeProductionTests {
  /// Custom SMTP: any address receives mail, 30 an hour.
  static func emulator(likeProduction: Bool = true) throws -> TestEmulator {
    try TestEmulator {
      $0.likeProduction = likeProduction
      $0.smtp = .custom
    }
  }

  @Test("sign-up answers the user without a session; signing in before confirming is email_not_confirmed")
  func confirmationOn() async throws {
    let emu = try Self.emulator()
    let signup = await emu.signUp("lp@example.com")
    #expect(signup.status == 200)
    #expect(signup.json["access_token"] == nil)
    #expect(signup.json["id"]?.string != nil && signup.json["confirmation_sent_at"] != nil)
    #expect(emu.outbox("lp@example.com").last?.kind == "signup")
    let early = await emu.signIn("lp@example.com")
    #expect(early.status == 400)
    #expect(early.json == ["code": "email_not_confirmed", "message": "Email not confirmed"])
    #expect(await emu.send("GET", "settings").json["mailer_autoconfirm"] == false)
  }

  @Test(
    "custom SMTP: 30 mails an hour for the whole project, then 429 over_email_send_rate_limit; default mode has no quota"
  )
  func emailQuota() async throws {
    let emu = try Self.emulator()
    for index in 0..<30 { #expect(await emu.signUp("q\(index)@example.com", from: index).status == 200) }
    let over = await emu.signUp("q30@example.com", from: 30)
    #expect(over.status == 429)
    #expect(over.json == ["code": "over_email_send_rate_limit", "message": "email rate limit exceeded"])
    #expect(await emu.send("POST", "recover", json: ["email": "q1@example.com"]).status == 429)
    emu.clock.advance(3600)
    #expect(await emu.signUp("q30@example.com", from: 30).status == 200)

    let relaxed = try TestEmulator(confirmEmail: true)
    for index in 0..<31 { #expect(await relaxed.signUp("r\(index)@example.com").status == 200) }
  }

  @Test("/token: a burst of 30 per address, then 429 over_request_rate_limit; refills at 150 per 5 minutes")
  func tokenLimit() async throws {
    let emu = try Self.emulator()
    for _ in 0..<30 { #expect(await emu.signIn("nobody@example.com", "wrong-password").status == 400) }
    let limited = await emu.signIn("nobody@example.com", "wrong-password")
    #expect(limited.status == 429)
    #expect(limited.json == ["code": "over_request_rate_limit", "message": "Request rate limit reached"])
    let other = await emu.send(
      "POST", "token?grant_type=refresh_token", json: ["refresh_token": "x"],
      headers: [("X-Forwarded-For", "203.0.113.9, 10.0.0.1")])
    #expect(other.status == 400)
    emu.clock.advance(2)
    #expect(await emu.signIn("nobody@example.com", "wrong-password").status == 400)
    #expect(await emu.signIn("nobody@example.com", "wrong-password").status == 429)
  }

  @Test("/verify: a burst of 30 per address, then 429; default mode is unlimited")
  func verifyLimit() async throws {
    let emu = try Self.emulator()
    let body: JSON = ["type": "recovery", "token_hash": "0000"]
    for _ in 0..<30 { #expect(await emu.send("POST", "verify", json: body).status == 403) }
    #expect(await emu.send("POST", "verify", json: body).errorCode == "over_request_rate_limit")
    let relaxed = try Self.emulator(likeProduction: false)
    for _ in 0..<40 { #expect(await relaxed.send("POST", "verify", json: body).status == 403) }
  }

  @Test("PUT /emulator/v1/config switches the mode at run time; bad bodies are 400")
  func runtimeSwitch() async throws {
    let emu = try Self.emulator(likeProduction: false)
    let off: JSON = ["like_production": false, "captcha": false, "smtp": "custom", "team": []]
    #expect(await emu.send("GET", "/emulator/v1/config").json == off)
    #expect(await emu.signUp("before@example.com").json.accessToken.isEmpty == false)
    let on = await emu.send("PUT", "/emulator/v1/config", json: ["like_production": true])
    #expect(on.json == ["like_production": true, "captcha": false, "smtp": "custom", "team": []])
    #expect(emu.emulator.mode.likeProduction)
    #expect(await emu.signUp("after@example.com").json["access_token"] == nil)
    #expect(await emu.send("PUT", "/emulator/v1/config", json: ["like_production": "yes"]).status == 400)
    #expect(await emu.send("PUT", "/emulator/v1/config", json: ["confirm": true]).status == 400)
    #expect(await emu.send("PUT", "/emulator/v1/config", raw: "nope").status == 400)
    #expect(await emu.send("DELETE", "/emulator/v1/config").status == 405)
    #expect(await emu.send("PUT", "/emulator/v1/config", json: ["like_production": false]).json == off)
  }
}

/// Fixed in every mode.
@Suite("Supabase parity fixes")
struct SupabaseParityFixTests {
  @Test("redirect_to: the site URL, loopback and the allow-list pass; any other address falls back to the site URL")
  func redirectAllowList() async throws {
    let emu = try TestEmulator()
    await emu.signUp("r@example.com")
    func link(_ redirect: String) async throws -> String {
      emu.clock.advance(61)
      let query = "recover?redirect_to=" + (redirect.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
      #expect(await emu.send("POST", query, json: ["email": "r@example.com"]).status == 200)
      return try #require(emu.outbox("r@example.com").last).link
    }
    #expect(try await link("https://evil.example/steal").hasSuffix("redirect_to=http://127.0.0.1:3000"))
    #expect(try await link("http://localhost:5173/welcome").hasSuffix("redirect_to=http://localhost:5173/welcome"))
    #expect(try await link("http://127.0.0.1:8080/x").hasSuffix("redirect_to=http://127.0.0.1:8080/x"))
    #expect(try await link("http://2130706433/").hasSuffix("redirect_to=http://127.0.0.1:3000"))
    #expect(try await link("javascript:alert(1)").hasSuffix("redirect_to=http://127.0.0.1:3000"))
  }

  @Test("allow-list globs: * stays within a label or segment, ** crosses them")
  func globs() {
    let site = "https://app.example.com"
    let list = ["https://*.example.com/**", "myapp://callback"]
    #expect(RedirectPolicy.isValid("https://app.example.com/any/path", siteURL: site, allowList: []))
    #expect(RedirectPolicy.isValid("https://preview.example.com/a/b", siteURL: site, allowList: list))
    #expect(!RedirectPolicy.isValid("https://a.b.example.com/", siteURL: site, allowList: list))
    #expect(!RedirectPolicy.isValid("https://example.com.evil.io/", siteURL: site, allowList: list))
    #expect(RedirectPolicy.isValid("myapp://callback#frag", siteURL: site, allowList: list))
    #expect(!RedirectPolicy.isValid("https://evil.io/", siteURL: site, allowList: list))
    #expect(!RedirectPolicy.isValid("", siteURL: site, allowList: list))
    #expect(Glob(pattern: "http://localhost:*").matches("http://localhost:3000"))
    #expect(!Glob(pattern: "http://localhost:*").matches("http://localhost:3000/x"))
  }

  @Test("admin create with password \"\" stores a random password, as GoTrue does")
  func adminEmptyPassword() async throws {
    let emu = try TestEmulator()
    let created = await emu.send(
      "POST", "admin/users", json: ["email": "blank@example.com", "password": "", "email_confirm": true],
      bearer: emu.serviceRoleKey)
    #expect(created.status == 200)
    let hash = try #require(emu.emulator.supabase.state.read { $0.user(email: "blank@example.com") }?.passwordHash)
    #expect(!PasswordHasher.verify("", hash: hash))
  }

  @Test("logout with an empty scope= is global")
  func logoutEmptyScope() async throws {
    let emu = try TestEmulator()
    await emu.signUp("s@example.com")
    let first = await emu.signIn("s@example.com").json
    let second = await emu.signIn("s@example.com").json
    #expect(await emu.send("POST", "logout?scope=", bearer: first.accessToken).status == 204)
    #expect(await emu.refresh(second.refreshToken).errorCode == "refresh_token_not_found")
  }

  @Test("secure e-mail change mails both addresses; either link completes it when confirmation is off")
  func secureEmailChangeDefault() async throws {
    let emu = try TestEmulator()
    let session = await emu.signUp("old@example.com").json
    let changed = await emu.send("PUT", "user", json: ["email": "new@example.com"], bearer: session.accessToken)
    #expect(changed.json["new_email"] == "new@example.com")
    let toOld = try #require(emu.outbox("old@example.com").last { $0.kind == "email_change" })
    let toNew = try #require(emu.outbox("new@example.com").last { $0.kind == "email_change" })
    #expect(toOld.code != toNew.code)
    let verified = await emu.send(
      "POST", "verify", json: ["type": "email_change", "email": "old@example.com", "token": .string(toOld.code)])
    #expect(verified.json["user"]?["email"] == "new@example.com")
  }

  @Test("secure e-mail change with confirmation on needs both links: the first answers the 'other email' message")
  func secureEmailChangeBoth() async throws {
    let emu = try SupabaseLikeProductionTests.emulator()
    await emu.signUp("c@example.com")
    emu.clock.advance(61)
    _ = await emu.send("POST", "recover", json: ["email": "c@example.com"])
    let recovery = try #require(emu.outbox("c@example.com").last { $0.kind == "recovery" })
    let session = await emu.send(
      "POST", "verify", json: ["type": "recovery", "email": "c@example.com", "token": .string(recovery.code)]
    ).json
    #expect(await emu.send("PUT", "user", json: ["email": "d@example.com"], bearer: session.accessToken).status == 200)
    let toOld = try #require(emu.outbox("c@example.com").last { $0.kind == "email_change" })
    let toNew = try #require(emu.outbox("d@example.com").last { $0.kind == "email_change" })
    let half = await emu.send(
      "POST", "verify", json: ["type": "email_change", "email": "d@example.com", "token": .string(toNew.code)])
    #expect(half.status == 200)
    #expect(
      half.json == [
        "msg": "Confirmation link accepted. Please proceed to confirm link sent to the other email", "code": "200",
      ])
    #expect(emu.emulator.supabase.state.read { $0.user(email: "c@example.com") } != nil)
    let link = try #require(URLComponents(string: toOld.link)?.queryItems?.first { $0.name == "token" }?.value)
    let done = await emu.send("GET", "verify?type=email_change&token=\(link)")
    #expect(done.status == 303)
    #expect(done.header("Location")?.contains("access_token=") == true)
    #expect(emu.emulator.supabase.state.read { $0.user(email: "d@example.com") } != nil)
  }

  @Test("/emulator/openapi.json describes the emulator's own routes")
  func openAPI() async throws {
    let emu = try TestEmulator()
    let document = await emu.send("GET", "/emulator/openapi.json")
    #expect(document.status == 200)
    #expect(document.json["openapi"] == "3.0.3")
    #expect(document.json["paths"]?["/emulator/v1/config"]?["put"] != nil)
    #expect(document.json["paths"]?["/emulator/v1/outbox"]?["get"] != nil)
  }
}
