import AuthTestSupport
import Foundation
import HostedLimits
import JSONKit
import Testing

@testable import AuthEmulator

/// What a hosted Supabase project does that the local stack does not: the built-in mail service
/// (2 mails an hour, team addresses only), GoTrue's per-address limits on every route that sends
/// mail or changes an account, the hosted link lifetime and refresh-token reuse interval, and
/// CAPTCHA protection. Each in both directions: the emulator refuses where production refuses,
/// and what stays within production's limits passes.
@Suite("Supabase hosted limits")
struct SupabaseHostedLimitsTests {
  static func builtIn(team: [String] = ["ada@example.com", "bob@example.com", "cy@example.com"]) throws -> TestEmulator
  {
    try TestEmulator {
      $0.likeProduction = true
      $0.team = team
    }
  }

  @Test("built-in mail: 2 mails an hour for the project, then 429 over_email_send_rate_limit; the next hour 2 more")
  func builtInQuota() async throws {
    let emu = try Self.builtIn()
    #expect(await emu.signUp("ada@example.com").status == 200)
    #expect(await emu.signUp("bob@example.com").status == 200)
    let over = await emu.signUp("cy@example.com")
    #expect(over.status == 429)
    #expect(over.json == ["code": "over_email_send_rate_limit", "message": "email rate limit exceeded"])
    #expect(emu.emulator.supabase.state.read { $0.user(email: "cy@example.com") } == nil)
    emu.clock.advance(3600)
    #expect(await emu.signUp("cy@example.com").status == 200)
    #expect(emu.outbox("cy@example.com").last?.kind == "signup")
  }

  @Test("built-in mail delivers only to the team: others get 400 email_address_not_authorized and nothing is stored")
  func teamOnly() async throws {
    let emu = try Self.builtIn(team: ["Ada@Example.com"])
    let outsider = await emu.signUp("eve@example.com")
    #expect(outsider.status == 400)
    #expect(
      outsider.json == [
        "code": "email_address_not_authorized",
        "message": "Email address \"eve@example.com\" cannot be used as it is not authorized",
      ])
    #expect(emu.emulator.supabase.state.read { $0.user(email: "eve@example.com") } == nil)
    #expect(emu.outbox("eve@example.com").isEmpty)
    // Case and a +label do not matter, as in GoTrue.
    #expect(await emu.signUp("ada+smoke@example.com").status == 200)
    #expect(emu.outbox("ada+smoke@example.com").count == 1)
    // Refused before the quota is counted: the team still gets its second mail.
    #expect(await emu.signUp("ada@example.com").status == 200)
  }

  @Test("with no team at all nobody receives mail; admin-created confirmed accounts need none")
  func noTeam() async throws {
    let emu = try Self.builtIn(team: [])
    #expect(await emu.signUp("ada@example.com").errorCode == "email_address_not_authorized")
    // What a smoke script against a hosted project does instead: create the account confirmed.
    for index in 0..<5 {
      let created = await emu.send(
        "POST", "admin/users",
        json: ["email": .string("smoke\(index)@example.com"), "password": "hunter22", "email_confirm": true],
        bearer: emu.serviceRoleKey)
      #expect(created.status == 200)
      #expect(await emu.signIn("smoke\(index)@example.com").status == 200)
    }
    #expect(
      await emu.send("POST", "recover", json: ["email": "smoke0@example.com"]).errorCode
        == "email_address_not_authorized")
  }

  @Test("custom SMTP: any address, 30 mails an hour")
  func customSMTP() async throws {
    let emu = try TestEmulator {
      $0.likeProduction = true
      $0.smtp = .custom
    }
    // Thirty people from thirty addresses (one address would meet the per-address limit first).
    for index in 0..<30 { #expect(await emu.signUp("c\(index)@example.com", from: index).status == 200) }
    #expect(await emu.signUp("c30@example.com", from: 30).errorCode == "over_email_send_rate_limit")
  }

  @Test("the mail service and team change at run time through /emulator/v1/config")
  func runtimeMailSettings() async throws {
    let emu = try Self.builtIn(team: [])
    #expect(await emu.signUp("eve@example.com").errorCode == "email_address_not_authorized")
    let team = await emu.send("PUT", "/emulator/v1/config", json: ["team": ["eve@example.com"]])
    #expect(team.json["team"] == ["eve@example.com"])
    #expect(await emu.signUp("eve@example.com").status == 200)
    #expect(await emu.signUp("mallory@example.com").errorCode == "email_address_not_authorized")
    #expect(await emu.send("PUT", "/emulator/v1/config", json: ["smtp": "custom"]).json["smtp"] == "custom")
    #expect(await emu.signUp("mallory@example.com").status == 200)
    #expect(await emu.send("PUT", "/emulator/v1/config", json: ["smtp": "postfix"]).status == 400)
    #expect(await emu.send("PUT", "/emulator/v1/config", json: ["team": "eve@example.com"]).status == 400)
  }

  @Test("the default mode has neither the quota nor the team rule")
  func defaultMode() async throws {
    let emu = try TestEmulator(confirmEmail: true)
    for index in 0..<5 { #expect(await emu.signUp("d\(index)@example.com").status == 200) }
  }

  /// Each route GoTrue limits with `RATE_LIMIT_OTP`: a request that reaches the limiter.
  static let otpRoutes: [(name: String, method: String, path: String, body: JSON)] = [
    ("signup", "POST", "signup", ["email": "x@example.com", "password": "short"]),
    ("recover", "POST", "recover", ["email": "nobody@example.com"]),
    ("resend", "POST", "resend", ["type": "signup", "email": "nobody@example.com"]),
    ("otp", "POST", "otp", ["email": "nobody@example.com", "create_user": false]),
  ]

  @Test("/signup, /recover, /resend, /otp: a burst of 30 per address and route, then 429; 30 per 5 minutes after")
  func otpBuckets() async throws {
    let emu = try TestEmulator {
      $0.likeProduction = true
      $0.smtp = .custom
    }
    for route in Self.otpRoutes {
      for _ in 0..<30 {
        #expect(await emu.send(route.method, route.path, json: route.body).status != 429, "\(route.name)")
      }
      let limited = await emu.send(route.method, route.path, json: route.body)
      #expect(limited.status == 429, "\(route.name)")
      #expect(limited.json == ["code": "over_request_rate_limit", "message": "Request rate limit reached"])
      // Another address has its own bucket.
      let other = await emu.send(
        route.method, route.path, json: route.body, headers: [("X-Forwarded-For", "198.51.100.7")])
      #expect(other.status != 429, "\(route.name)")
    }
    // 30 per 300 s: one more every 10 s.
    emu.clock.advance(10)
    #expect(await emu.send("POST", "recover", json: ["email": "nobody@example.com"]).status == 200)
    #expect(await emu.send("POST", "recover", json: ["email": "nobody@example.com"]).status == 429)
  }

  @Test("PUT /user: a burst of 30 per address, then 429")
  func userBucket() async throws {
    let emu = try TestEmulator {
      $0.likeProduction = true
      $0.smtp = .custom
    }
    let created = await emu.send(
      "POST", "admin/users", json: ["email": "u@example.com", "password": "hunter22", "email_confirm": true],
      bearer: emu.serviceRoleKey)
    #expect(created.status == 200)
    let session = await emu.signIn("u@example.com").json
    for index in 0..<30 {
      #expect(
        await emu.send("PUT", "user", json: ["data": ["n": .int(index)]], bearer: session.accessToken).status == 200)
    }
    #expect(
      await emu.send("PUT", "user", json: ["data": ["n": 31]], bearer: session.accessToken).errorCode
        == "over_request_rate_limit")
  }

  @Test("a script within production's per-address limits passes: 30 requests at once, then one every 10 s")
  func withinLimits() async throws {
    let emu = try TestEmulator {
      $0.likeProduction = true
      $0.smtp = .custom
    }
    // Recovery for addresses without an account: no mail, so only the per-address limit applies.
    for index in 0..<30 {
      #expect(await emu.send("POST", "recover", json: ["email": .string("w\(index)@example.com")]).status == 200)
    }
    for index in 30..<40 {
      emu.clock.advance(10)
      #expect(await emu.send("POST", "recover", json: ["email": .string("w\(index)@example.com")]).status == 200)
    }
  }

  @Test("the default mode has no per-address limits on these routes")
  func defaultModeUnlimited() async throws {
    let emu = try TestEmulator()
    for _ in 0..<40 { #expect(await emu.send("POST", "recover", json: ["email": "nobody@example.com"]).status == 200) }
  }

  @Test("mailed links and codes work for 3600 s in both modes (the hosted otp_expiry), then otp_expired")
  func linkLifetime() async throws {
    #expect(EmulatorConfig().otpLifetime == ProductionLimits.Supabase.linkLifetime)
    #expect(ProductionLimits.Supabase.linkLifetime == 3600)
    for likeProduction in [false, true] {
      let emu = try TestEmulator(confirmEmail: true) {
        $0.likeProduction = likeProduction
        $0.smtp = .custom
      }
      await emu.signUp("late@example.com")
      await emu.signUp("ontime@example.com")
      let late = try #require(emu.outbox("late@example.com").last)
      let onTime = try #require(emu.outbox("ontime@example.com").last)
      emu.clock.advance(3599)
      let ok = await emu.send(
        "POST", "verify", json: ["type": "signup", "email": "ontime@example.com", "token": .string(onTime.code)])
      #expect(ok.status == 200)
      emu.clock.advance(2)
      let expired = await emu.send(
        "POST", "verify", json: ["type": "signup", "email": "late@example.com", "token": .string(late.code)])
      #expect(expired.errorCode == "otp_expired")
    }
  }

  @Test("refresh-token reuse interval: 10 s like production, 0 by default, the flag wins over both")
  func reuseInterval() async throws {
    func reuse(_ configure: @escaping (inout EmulatorConfig) -> Void, after seconds: Double) async throws -> Int {
      let emu = try TestEmulator(configure: configure)
      let created = await emu.send(
        "POST", "admin/users", json: ["email": "r@example.com", "password": "hunter22", "email_confirm": true],
        bearer: emu.serviceRoleKey)
      #expect(created.status == 200)
      let first = await emu.signIn("r@example.com").json.refreshToken
      let second = await emu.refresh(first).json.refreshToken
      _ = await emu.refresh(second)  // `first` is now two generations old: only the interval saves it
      emu.clock.advance(seconds)
      return await emu.refresh(first).status
    }
    #expect(try await reuse({ $0.likeProduction = true }, after: 5) == 200)
    #expect(try await reuse({ $0.likeProduction = true }, after: 11) == 400)
    #expect(try await reuse({ _ in }, after: 1) == 400)
    #expect(
      try await reuse(
        {
          $0.likeProduction = true
          $0.refreshReuseInterval = 0
        }, after: 1) == 400)
    #expect(try await reuse({ $0.refreshReuseInterval = 30 }, after: 20) == 200)
  }
}

/// GoTrue's CAPTCHA protection (`verifyCaptcha`): anon calls need a token, admin credentials skip it.
@Suite("Supabase CAPTCHA")
struct SupabaseCaptchaTests {
  static let refused: JSON = [
    "code": "captcha_failed", "message": "captcha protection: request disallowed (no captcha_token found)",
  ]

  @Test("sign-up, password sign-in, recover, resend and otp need gotrue_meta_security.captcha_token")
  func anonNeedsToken() async throws {
    let emu = try TestEmulator { $0.captcha = true }
    let bare = await emu.signUp("cap@example.com")
    #expect(bare.status == 400)
    #expect(bare.json == Self.refused)
    let withToken = await emu.send(
      "POST", "signup",
      json: [
        "email": "cap@example.com", "password": "hunter22", "gotrue_meta_security": ["captcha_token": "10000000-aaaa"],
      ])
    #expect(withToken.status == 200)
    #expect(await emu.signIn("cap@example.com").json == Self.refused)
    let signIn = await emu.send(
      "POST", "token?grant_type=password",
      json: ["email": "cap@example.com", "password": "hunter22", "gotrue_meta_security": ["captcha_token": "t"]])
    #expect(signIn.status == 200)
    // Refreshing carries no CAPTCHA (`isIgnoreCaptchaRoute`).
    #expect(await emu.refresh(signIn.json.refreshToken).status == 200)
    for (path, body) in [
      ("recover", ["email": "cap@example.com"]), ("resend", ["type": "signup", "email": "cap@example.com"]),
      ("otp", ["email": "cap@example.com"]),
    ] as [(String, JSON)] {
      #expect(await emu.send("POST", path, json: body).json == Self.refused, "\(path)")
    }
    #expect(
      await emu.send(
        "POST", "signup",
        json: [
          "email": "x@example.com", "password": "hunter22",
          "gotrue_meta_security": ["captcha_token": "  "],
        ]
      ).json == Self.refused)
  }

  @Test("admin credentials skip it: service_role JWT, secret key")
  func adminSkips() async throws {
    let emu = try TestEmulator(confirmEmail: true) { $0.captcha = true }
    let created = await emu.send(
      "POST", "signup",
      json: ["email": "late@example.com", "password": "hunter22", "gotrue_meta_security": ["captcha_token": "t"]])
    #expect(created.status == 200)
    emu.clock.advance(61)
    let resent = await emu.send(
      "POST", "resend", json: ["type": "signup", "email": "late@example.com"], bearer: emu.serviceRoleKey)
    #expect(resent.status == 200)
    #expect(emu.outbox("late@example.com").count == 2)
    emu.clock.advance(61)
    let secret = await emu.send(
      "POST", "resend", json: ["type": "signup", "email": "late@example.com"],
      headers: [("apikey", SupabaseAPIKeys.secret)])
    #expect(secret.status == 200)
    // The anon key is no admin credential.
    #expect(
      await emu.send("POST", "resend", json: ["type": "signup", "email": "late@example.com"], bearer: emu.anonKey).json
        == Self.refused)
  }

  @Test("off by default; switched at run time by PUT /emulator/v1/config {\"captcha\": true}")
  func runtimeSwitch() async throws {
    let emu = try TestEmulator()
    #expect(await emu.signUp("a@example.com").status == 200)
    #expect(await emu.send("PUT", "/emulator/v1/config", json: ["captcha": true]).json["captcha"] == true)
    #expect(await emu.signUp("b@example.com").json == Self.refused)
    #expect(await emu.send("PUT", "/emulator/v1/config", json: ["captcha": "yes"]).status == 400)
    #expect(await emu.send("PUT", "/emulator/v1/config", json: ["captcha": false]).json["captcha"] == false)
    #expect(await emu.signUp("b@example.com").status == 200)
  }
}
