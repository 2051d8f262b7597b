import AuthTestSupport
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("/recover, /resend, /verify")
struct MailVerifyTests {
  @Test("recover: 200 {} for unknown, a recovery mail for known, 429 with the seconds left")
  func recover() async throws {
    let emu = try TestEmulator()
    let unknown = await emu.send("POST", "recover", json: ["email": "ghost@example.com"])
    #expect(unknown.status == 200)
    #expect(unknown.text == "{}")
    await emu.signUp("m@example.com")
    let sent = await emu.send(
      "POST", "recover?redirect_to=http%3A%2F%2Flocalhost%3A3000%2Freset", json: ["email": "M@example.com"])
    #expect(sent.status == 200)
    let mail = try #require(emu.outbox("m@example.com").last)
    #expect(mail.kind == "recovery")
    #expect(mail.link.hasSuffix("&type=recovery&redirect_to=http://localhost:3000/reset"))
    emu.clock.advance(20.7)
    let soon = await emu.send("POST", "recover", json: ["email": "m@example.com"])
    #expect(soon.status == 429)
    #expect(
      soon.json == [
        "code": "over_email_send_rate_limit",
        "message": "For security purposes, you can only request this after 39 seconds.",
      ])
    #expect(soon.header("Retry-After") == nil)
    emu.clock.advance(40)
    #expect(await emu.send("POST", "recover", json: ["email": "m@example.com"]).status == 200)
    let missing = await emu.send("POST", "recover", json: [:])
    #expect(missing.json["message"] == "Password recovery requires an email")
  }

  @Test("verify recovery with the code: a session (amr otp), single use, confirms the e-mail")
  func verifyRecoveryCode() async throws {
    let emu = try TestEmulator(confirmEmail: true)
    await emu.signUp("v@example.com")
    emu.clock.advance(61)
    _ = await emu.send("POST", "recover", json: ["email": "v@example.com"])
    let code = try #require(emu.outbox("v@example.com").last { $0.kind == "recovery" }).code
    let verified = await emu.send(
      "POST", "verify", json: ["type": "recovery", "email": "V@example.com", "token": .string(code)])
    #expect(verified.status == 200)
    #expect(verified.json.claims["amr"]?[0]?["method"] == "otp")
    #expect(verified.json["user"]?["email_confirmed_at"] != nil)
    #expect(verified.json["weak_password"] == nil)
    let reused = await emu.send(
      "POST", "verify", json: ["type": "recovery", "email": "v@example.com", "token": .string(code)])
    #expect(reused.status == 403)
    #expect(reused.json == ["code": "otp_expired", "message": "Token has expired or is invalid"])
    #expect(await emu.signIn("v@example.com").status == 200)
  }

  @Test("verify with token_hash, then PUT /user password logs the other sessions out")
  func verifyHashThenNewPassword() async throws {
    let emu = try TestEmulator()
    let other = await emu.signUp("h@example.com").json
    _ = await emu.send("POST", "recover", json: ["email": "h@example.com"])
    let mail = try #require(emu.outbox("h@example.com").last)
    let hash = EmulatorJWT.sha224Hex("h@example.com" + mail.code)
    let session = await emu.send("POST", "verify", json: ["type": "recovery", "token_hash": .string(hash)]).json
    #expect(!session.accessToken.isEmpty)
    let same = await emu.send("PUT", "user", json: ["password": "hunter22"], bearer: session.accessToken)
    #expect(
      same.json == [
        "code": "same_password", "message": "New password should be different from the old password.",
      ])
    let weak = await emu.send("PUT", "user", json: ["password": "123"], bearer: session.accessToken)
    #expect(weak.errorCode == "weak_password")
    let changed = await emu.send("PUT", "user", json: ["password": "a-new-password"], bearer: session.accessToken)
    #expect(changed.status == 200)
    #expect(await emu.signIn("h@example.com", "a-new-password").status == 200)
    #expect(await emu.signIn("h@example.com").errorCode == "invalid_credentials")
    #expect(await emu.send("GET", "user", bearer: session.accessToken).status == 200)
    let gone = await emu.send("GET", "user", bearer: other.accessToken)
    #expect(gone.status == 403)
    #expect(gone.errorCode == "session_not_found")
    let bad = await emu.send("POST", "verify", json: ["type": "recovery", "token_hash": .string(hash)])
    #expect(bad.json == ["code": "otp_expired", "message": "Email link is invalid or has expired"])
  }

  @Test("verify input errors")
  func verifyErrors() async throws {
    let emu = try TestEmulator()
    #expect(
      await emu.send("POST", "verify", json: ["token": "1"]).json["message"] == "Verify requires a verification type")
    #expect(
      await emu.send("POST", "verify", json: ["type": "recovery"]).json["message"]
        == "Verify requires either a token or a token hash")
    let extra = await emu.send("POST", "verify", json: ["type": "recovery", "token_hash": "x", "email": "a@b.co"])
    #expect(extra.json["message"] == "Only the token_hash and type should be provided")
    let badEmail = await emu.send("POST", "verify", json: ["type": "recovery", "token": "123456", "email": "nope"])
    #expect(badEmail.status == 422)
    let type = await emu.send("POST", "verify", json: ["type": "bogus", "token_hash": "abc"])
    #expect(type.json["message"] == "Unsupported verification type")
  }

  @Test("GET /verify: 303 with the session in the fragment, or the error")
  func verifyGet() async throws {
    let emu = try TestEmulator(confirmEmail: true)
    await emu.signUp("g@example.com")
    let mail = try #require(emu.outbox("g@example.com").last)
    let path = String(mail.link.dropFirst("http://emulator.test".count))
    let ok = await emu.send("GET", path)
    #expect(ok.status == 303)
    let location = try #require(ok.header("Location"))
    #expect(location.hasPrefix("http://127.0.0.1:3000#access_token="))
    #expect(location.contains("&expires_in=3600&refresh_token="))
    #expect(location.hasSuffix("&sb=&token_type=bearer&type=signup"))
    #expect(await emu.signIn("g@example.com").status == 200)
    let again = await emu.send("GET", path)
    #expect(again.status == 303)
    #expect(
      again.header("Location") == "http://127.0.0.1:3000#error=access_denied&error_code=otp_expired"
        + "&error_description=Email+link+is+invalid+or+has+expired&sb=")
    let missing = await emu.send("GET", "verify?type=signup")
    #expect(missing.status == 400)
  }

  @Test("resend signup: 200 {} for unknown or confirmed, a mail for pending, the 60 s limit")
  func resend() async throws {
    let emu = try TestEmulator(confirmEmail: true)
    #expect(await emu.send("POST", "resend", json: ["type": "signup", "email": "x@example.com"]).text == "{}")
    await emu.signUp("p@example.com")
    let soon = await emu.send("POST", "resend", json: ["type": "signup", "email": "p@example.com"])
    #expect(soon.status == 429)
    emu.clock.advance(60)
    #expect(await emu.send("POST", "resend", json: ["type": "signup", "email": "p@example.com"]).status == 200)
    #expect(emu.outbox("p@example.com").count == 2)
    let bad = await emu.send("POST", "resend", json: ["type": "recovery", "email": "p@example.com"])
    #expect(bad.json["message"] == "Missing one of these types: signup, email_change, sms, phone_change")
    let code = try #require(emu.outbox("p@example.com").last).code
    let signupVerify = await emu.send(
      "POST", "verify", json: ["type": "signup", "email": "p@example.com", "token": .string(code)])
    #expect(signupVerify.status == 200)
    #expect(signupVerify.json["user"]?["identities"]?[0]?["identity_data"]?["email_verified"] == true)
  }
}

@Suite("bound address")
struct BoundAddressTests {
  @Test("without a Host header, links point at the bound port")
  func linksUseBoundPort() async throws {
    var config = EmulatorConfig()
    config.port = 0
    config.confirmEmail = true
    let emulator = try Emulator(config: config)
    let port = try await emulator.start()
    #expect(port > 0 && emulator.port == port)
    let body: JSON = ["email": "nohost@example.com", "password": "hunter22"]
    let response = await emulator.handle(.init(method: "POST", uri: "/auth/v1/signup", body: body.bytes))
    #expect(response.status == 200)
    let link = emulator.outbox.messages(to: "nohost@example.com").last?.link ?? ""
    #expect(link.hasPrefix("http://127.0.0.1:\(port)/auth/v1/verify?token="))
    #expect(emulator.banner().contains("export SUPABASE_URL=http://127.0.0.1:\(port)\n"))
    await emulator.shutdown()
  }
}

@Suite("verify's redirect")
struct VerifyRedirectTests {
  @Test("a redirect_to with a line break in it falls back to the site URL, as GoTrue's url.Parse refuses it")
  func controlCharactersFallBack() async throws {
    var config = EmulatorConfig()
    config.port = 0
    config.confirmEmail = true
    let emulator = try Emulator(config: config)
    _ = try await emulator.start()
    let body: JSON = ["email": "crlf@example.com", "password": "hunter22"]
    _ = await emulator.handle(.init(method: "POST", uri: "/auth/v1/signup", body: body.bytes))
    let link = try #require(emulator.outbox.messages(to: "crlf@example.com").last?.link)
    let token = try #require(link.split(separator: "token=").last?.split(separator: "&").first)
    let uri = "/auth/v1/verify?token=\(token)&type=signup&redirect_to=http://localhost:3000/%0d%0aSet-Cookie:%20x=1"
    let response = await emulator.handle(.init(method: "GET", uri: uri))
    #expect(response.status == 303)
    let location = response.headers.first { $0.0.lowercased() == "location" }?.1 ?? ""
    #expect(location.hasPrefix(config.siteURL), "\(location)")
    #expect(!location.contains("\r") && !location.contains("\n") && !location.contains("Set-Cookie"))
    await emulator.shutdown()
  }
}
