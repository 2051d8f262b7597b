import AuthTestSupport
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("/otp with a phone, /verify type sms, the password grant with a phone")
struct PhoneTests {
  @Test("validatePhone: `+` and spaces dropped, E.164 digits, else 400 validation_failed")
  func normalisation() throws {
    #expect(try GoTrueRules.validatePhone("+1 555 123 4567") == "15551234567")
    #expect(try GoTrueRules.validatePhone("447700900123") == "447700900123")
    for bad in ["+0123", "+1", "+1555-123", "+1234567890123456", "", "+"] {
      #expect(throws: GoTrueError.validation("Invalid phone number format (E.164 required)")) {
        try GoTrueRules.validatePhone(bad)
      }
    }
  }

  @Test("a pending phone change is kept in the --state document and read back")
  func pendingPhoneChangeIsStored() throws {
    var user = SBUser(
      id: "u1", email: "", appMetadata: JSONObject(), userMetadata: JSONObject(), createdAt: 1, updatedAt: 1)
    user.phoneChange = "15557654321"
    user.phoneChangeToken = "abc"
    user.phoneChangeSentAt = 42
    let read = try #require(SBUser(document: user.document))
    #expect(read.phoneChange == "15557654321" && read.phoneChangeToken == "abc" && read.phoneChangeSentAt == 42)
    #expect(read.wireObject()["new_phone"]?.string == "15557654321")
  }

  @Test("a new number: a user with the phone, a 6-digit text to +NUMBER; the code signs in once")
  func signUpAndIn() async throws {
    let emu = try TestEmulator()
    let sent = await emu.send("POST", "otp", json: ["phone": "+1 555 123 4567", "channel": "sms"])
    #expect(sent.status == 200)
    #expect(sent.text == "{}")
    let sms = try #require(emu.outbox("+15551234567").last)
    #expect(sms.kind == "sms" && sms.link.isEmpty && sms.code.count == 6)
    let verified = await emu.send(
      "POST", "verify", json: ["type": "sms", "phone": "+15551234567", "token": .string(sms.code)])
    #expect(verified.status == 200)
    #expect(verified.json["user"]?["phone"] == "15551234567")
    #expect(verified.json["user"]?["phone_confirmed_at"]?.string != nil)
    #expect(verified.json["user"]?["email"] == "")
    #expect(verified.json["user"]?["app_metadata"]?["provider"] == "phone")
    #expect(verified.json.claims["amr"]?[0]?["method"] == "otp")
    let again = await emu.send(
      "POST", "verify", json: ["type": "sms", "phone": "15551234567", "token": .string(sms.code)])
    #expect(again.status == 403)
    #expect(again.json == ["code": "otp_expired", "message": "Token has expired or is invalid"])
  }

  @Test("one text a minute per number; a code works for 60 s")
  func frequencyAndLifetime() async throws {
    let emu = try TestEmulator()
    #expect(await emu.send("POST", "otp", json: ["phone": "+15551234567"]).status == 200)
    emu.clock.advance(20.5)
    let soon = await emu.send("POST", "otp", json: ["phone": "+15551234567"])
    #expect(soon.status == 429)
    #expect(
      soon.json == [
        "code": "over_sms_send_rate_limit",
        "message": "For security purposes, you can only request this after 39 seconds.",
      ])
    emu.clock.advance(40)
    #expect(await emu.send("POST", "otp", json: ["phone": "+15551234567"]).status == 200)
    let code = try #require(emu.outbox("+15551234567").last).code
    emu.clock.advance(61)
    let late = await emu.send("POST", "verify", json: ["type": "sms", "phone": "+15551234567", "token": .string(code)])
    #expect(late.errorCode == "otp_expired")
  }

  @Test("create_user false, a bad number, a channel other than sms, sms with an e-mail")
  func refusals() async throws {
    let emu = try TestEmulator()
    let unknown = await emu.send("POST", "otp", json: ["phone": "+15551234567", "create_user": false])
    #expect(unknown.status == 422 && unknown.errorCode == "otp_disabled")
    let bad = await emu.send("POST", "otp", json: ["phone": "+0123"])
    #expect(bad.status == 400 && bad.json["message"] == "Invalid phone number format (E.164 required)")
    let whatsapp = await emu.send("POST", "otp", json: ["phone": "+15551234567", "channel": "whatsapp"])
    #expect(whatsapp.status == 400 && whatsapp.errorCode == "validation_failed")
    let byEmail = await emu.send("POST", "verify", json: ["type": "sms", "email": "a@example.com", "token": "123456"])
    #expect(byEmail.errorCode == "otp_expired")
    let badVerify = await emu.send("POST", "verify", json: ["type": "sms", "phone": "+0", "token": "123456"])
    #expect(badVerify.status == 400)
    let settings = await emu.send("GET", "settings")
    #expect(settings.json["external"]?["phone"] == true)
  }

  @Test("the password grant finds a phone; an unconfirmed one is phone_not_confirmed")
  func passwordGrant() async throws {
    let emu = try TestEmulator()
    for (phone, confirmed) in [("+15551234567", true), ("+15557654321", false)] {
      let made = await emu.send(
        "POST", "admin/users",
        json: ["phone": .string(phone), "password": "pw-123456", "phone_confirm": .bool(confirmed)],
        bearer: emu.serviceRoleKey)
      #expect(made.status == 200)
    }
    let grant = "token?grant_type=password"
    let ok = await emu.send("POST", grant, json: ["phone": "+15551234567", "password": "pw-123456"])
    #expect(ok.status == 200 && ok.json["user"]?["phone"] == "15551234567")
    let wrong = await emu.send("POST", grant, json: ["phone": "15551234567", "password": "nope-1234"])
    #expect(wrong.errorCode == "invalid_credentials")
    let unconfirmed = await emu.send("POST", grant, json: ["phone": "+15557654321", "password": "pw-123456"])
    #expect(unconfirmed.status == 400 && unconfirmed.errorCode == "phone_not_confirmed")
  }
}
