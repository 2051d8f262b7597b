import AuthTestSupport
import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("Supabase accounts without a password: /invite, /otp, anonymous, social, SSO")
struct AccountKindsTests {
  @Test("POST /invite: invited_at, no confirmed_at, no password (invalid_credentials) until the invite is accepted")
  func invite() async throws {
    let emu = try TestEmulator()
    let key = emu.serviceRoleKey
    let invited = await emu.send(
      "POST", "invite", json: ["email": "New@Example.com", "data": ["full_name": "Newt"]], bearer: key)
    #expect(invited.status == 200)
    #expect(invited.json["email"] == "new@example.com")
    #expect(invited.json["invited_at"] != nil)
    #expect(invited.json["confirmed_at"] == nil)
    #expect(invited.json["identities"]?[0]?["provider"] == "email")
    #expect(
      await emu.signIn("new@example.com", "anything-1").json == [
        "code": "invalid_credentials", "message": "Invalid login credentials",
      ])
    let mail = try #require(emu.outbox("new@example.com").last)
    #expect(mail.kind == "invite")
    #expect(
      await emu.send("POST", "invite", json: ["email": "new@example.com"], bearer: emu.anonKey).errorCode == "not_admin"
    )
    let accepted = await emu.send(
      "POST", "verify", json: ["type": "invite", "email": "new@example.com", "token": .string(mail.code)])
    #expect(accepted.status == 200)
    #expect(accepted.json["user"]?["confirmed_at"] != nil)
    #expect(
      await emu.send("POST", "invite", json: ["email": "new@example.com"], bearer: key).errorCode == "email_exists")
    let trail = await emu.send("GET", "admin/audit", bearer: key).json
    #expect(trail.array?.compactMap { $0["payload"]?["action"]?.string } == ["user_signedup", "user_invited"])
    let link = await emu.send(
      "POST", "admin/generate_link", json: ["type": "invite", "email": "other@example.com"], bearer: key)
    #expect(link.json["invited_at"] != nil)
    #expect(await emu.send("GET", "admin/audit?query=action:user_invited", bearer: key).json.array?.count == 2)
  }

  @Test(
    "POST /otp: a magic link and a 6-digit code; either signs in; create_user false for an unknown address is otp_disabled"
  )
  func otp() async throws {
    let emu = try TestEmulator()
    #expect(
      await emu.send("POST", "otp", json: ["email": "nobody@example.com", "create_user": false]).json
        == ["code": "otp_disabled", "message": "Signups not allowed for otp"])
    #expect(await emu.send("POST", "otp", json: ["email": "new@example.com"]).status == 200)
    let mail = try #require(emu.outbox("new@example.com").last)
    #expect(mail.kind == "magiclink")
    #expect(mail.code.count == 6)
    let byCode = await emu.send(
      "POST", "verify", json: ["type": "email", "email": "new@example.com", "token": .string(mail.code)])
    #expect(byCode.status == 200)
    #expect(byCode.json.claims["amr"]?[0]?["method"] == "otp")
    emu.clock.advance(61)
    #expect(await emu.send("POST", "otp", json: ["email": "new@example.com", "create_user": false]).status == 200)
    let second = try #require(emu.outbox("new@example.com").last)
    let hash = try #require(second.link.split(separator: "token=").last?.split(separator: "&").first.map(String.init))
    let byHash = await emu.send("POST", "verify", json: ["type": "magiclink", "token_hash": .string(hash)])
    #expect(byHash.status == 200)
    #expect(await emu.send("POST", "otp", json: [:]).errorCode == "validation_failed")
  }

  @Test("/otp with confirmation on mails the confirmation, which signs in too")
  func otpConfirm() async throws {
    let emu = try TestEmulator(confirmEmail: true)
    #expect(await emu.send("POST", "otp", json: ["email": "new@example.com"]).status == 200)
    let mail = try #require(emu.outbox("new@example.com").last)
    #expect(mail.kind == "signup")
    #expect(
      await emu.send(
        "POST", "verify", json: ["type": "email", "email": "new@example.com", "token": .string(mail.code)]
      ).status == 200)
  }

  @Test("anonymous sign-in: off by default (anonymous_provider_disabled); on: is_anonymous, no e-mail, amr anonymous")
  func anonymous() async throws {
    #expect(await (try TestEmulator()).send("POST", "signup", json: [:]).errorCode == "anonymous_provider_disabled")
    let emu = try TestEmulator { $0.anonymousSignIns = true }
    let reply = await emu.send("POST", "signup", json: ["data": ["theme": "dark"]])
    #expect(reply.status == 200)
    let user = try #require(reply.json["user"])
    #expect(user["is_anonymous"] == true)
    #expect(user["email"] == "")
    #expect(user["app_metadata"] == [:])
    #expect(user["identities"] == [])
    #expect(reply.json.claims["amr"]?[0]?["method"] == "anonymous")
    #expect(await emu.send("GET", "settings").json["external"]?["anonymous_users"] == true)
  }

  @Test(
    "the emulator's IdP sign-in: a Google-only account (no e-mail identity, no password), then linking by verified e-mail"
  )
  func socialAccounts() async throws {
    let emu = try TestEmulator()
    #expect(await emu.send("GET", "settings").json["external"]?["google"] == false)
    let google = await emu.send(
      "POST", "/emulator/v1/supabase/idp",
      json: ["provider": "google", "email": "Gus@Example.com", "name": "Gus"])
    #expect(google.status == 200, "\(google.text)")
    let user = try #require(google.json["user"])
    #expect(user["app_metadata"] == ["provider": "google", "providers": ["google"]])
    #expect(user["identities"]?.array?.compactMap { $0["provider"]?.string } == ["google"])
    #expect(user["identities"]?[0]?["identity_data"]?["email_verified"] == true)
    #expect(user["email_confirmed_at"] != nil)
    #expect(google.json.claims["amr"]?[0]?["method"] == "oauth")
    #expect(await emu.signIn("gus@example.com", "any-password").errorCode == "invalid_credentials")
    let again = await emu.send(
      "POST", "/emulator/v1/supabase/idp", json: ["provider": "google", "email": "gus@example.com"])
    #expect(again.json["user"]?["id"] == user["id"], "the same Google subject signs the same account in")
    #expect(await emu.send("GET", "settings").json["external"]?["google"] == true)
    // An e-mail account gets a GitHub identity linked by its verified address.
    await emu.signUp("ada@example.com")
    let linked = await emu.send(
      "POST", "/emulator/v1/supabase/idp", json: ["provider": "github", "email": "ada@example.com"])
    #expect(linked.json["user"]?["app_metadata"]?["providers"] == ["email", "github"])
    #expect(linked.json["user"]?["identities"]?.array?.count == 2)
    #expect(
      await emu.send("POST", "/emulator/v1/supabase/idp", json: ["provider": "myspace"]).errorCode
        == "validation_failed")
    let trail = await emu.send("GET", "admin/audit?query=author:gus", bearer: emu.serviceRoleKey).json
    #expect(trail.array?.compactMap { $0["payload"]?["action"]?.string } == ["login", "login", "user_signedup"])
    #expect(trail[2]?["payload"]?["traits"] == ["provider": "google"])
  }

  @Test(
    "an SSO user is never found by a password sign-in, and an invited user that accepts through a social IdP is recorded"
  )
  func ssoAndInviteAccepted() async throws {
    let emu = try TestEmulator()
    let accounts = try EmulatorSeed.parse(
      """
      {"backend":"supabase","email":"sso@example.com","password":null,"sso":true}
      {"backend":"supabase","email":"invited@example.com","password":null,"invited":true}
      """, file: "seed")
    try emu.emulator.seed(accounts)
    #expect(await emu.signIn("sso@example.com").errorCode == "invalid_credentials")
    let accepted = await emu.send(
      "POST", "/emulator/v1/supabase/idp", json: ["provider": "google", "email": "invited@example.com"])
    #expect(accepted.json["user"]?["confirmed_at"] != nil)
    let actions = await emu.send("GET", "admin/audit", bearer: emu.serviceRoleKey).json.array?.compactMap {
      $0["payload"]?["action"]?.string
    }
    #expect(actions == ["login", "invite_accepted", "identity_linked"])
  }

  @Test("admin create keeps the app_metadata provider/providers it is given (the identity stays e-mail, as GoTrue's)")
  func adminCreateProviders() async throws {
    let emu = try TestEmulator()
    let made = await emu.send(
      "POST", "admin/users",
      json: [
        "email": "gh@example.com", "app_metadata": ["provider": "github", "providers": ["github"]],
        "email_confirm": true,
      ], bearer: emu.serviceRoleKey)
    #expect(made.status == 200)
    #expect(made.json["app_metadata"] == ["provider": "github", "providers": ["github"]])
    #expect(made.json["identities"]?.array?.compactMap { $0["provider"]?.string } == ["email"])
    #expect(
      await emu.signIn("gh@example.com", "any-password").errorCode == "invalid_credentials", "no password was given")
  }
}
