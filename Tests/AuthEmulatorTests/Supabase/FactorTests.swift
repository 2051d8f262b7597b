import AuthTestSupport
import Foundation
import JSONKit
import OneTimeCode
import Testing

@testable import AuthEmulator

/// A signed-in user with an enrolled (and optionally verified) TOTP factor.
struct FactorRig {
  let emu: TestEmulator
  var session: JSON
  var factorID = ""
  var secret = ""

  init(email: String = "mfa@example.com", configure: (inout EmulatorConfig) -> Void = { _ in }) async throws {
    emu = try TestEmulator(configure: configure)
    session = await emu.signUp(email).json
    #expect(session.accessToken != "")
  }

  var token: String { session.accessToken }

  func code(offset: Double = 0) -> String { TOTP.code(secret: secret, at: emu.clock.now() + offset) ?? "" }

  mutating func enroll(_ name: String = "phone") async throws -> TestResponse {
    let reply = await emu.send(
      "POST", "factors", json: ["factor_type": "totp", "friendly_name": .string(name)], bearer: token)
    factorID = reply.json["id"]?.string ?? ""
    secret = reply.json["totp"]?["secret"]?.string ?? ""
    return reply
  }

  func challenge(_ bearer: String? = nil) async -> TestResponse {
    await emu.send("POST", "factors/\(factorID)/challenge", json: [:], bearer: bearer ?? token)
  }

  func verify(_ challengeID: String, _ code: String, bearer: String? = nil) async -> TestResponse {
    await emu.send(
      "POST", "factors/\(factorID)/verify", json: ["challenge_id": .string(challengeID), "code": .string(code)],
      bearer: bearer ?? token)
  }

  /// Challenge and verify with the current code; keeps the aal2 session.
  mutating func verifyNow() async throws {
    let challenge = await challenge()
    let reply = await verify(try #require(challenge.json["id"]?.string), code())
    #expect(reply.status == 200, "\(reply.text)")
    session = reply.json
  }
}

@Suite("Supabase /factors (TOTP)")
struct FactorTests {
  @Test("enrol: totp.{qr_code (SVG), secret, uri}; the factor is unverified until its first verify")
  func enroll() async throws {
    var rig = try await FactorRig()
    let reply = try await rig.enroll()
    #expect(reply.status == 200)
    #expect(reply.json["type"] == "totp")
    #expect(reply.json["friendly_name"] == "phone")
    let totp = try #require(reply.json["totp"])
    #expect(totp["qr_code"]?.string?.hasPrefix("<?xml") == true)
    #expect(rig.secret.count == 32)
    #expect(
      totp["uri"]?.string
        == "otpauth://totp/127.0.0.1:3000:mfa@example.com?algorithm=SHA1&digits=6&issuer=127.0.0.1:3000&period=30&secret=\(rig.secret)"
    )
    let user = await rig.emu.send("GET", "user", bearer: rig.token).json
    let factor = try #require(user["factors"]?[0])
    #expect(factor["status"] == "unverified")
    #expect(factor["factor_type"] == "totp")
    #expect(factor["id"]?.string == rig.factorID)
    #expect(
      factor.object?.keys == [
        "id", "created_at", "updated_at", "status", "friendly_name", "factor_type", "phone", "last_challenged_at",
      ])
    #expect(factor["last_challenged_at"] == .null)
    let named = await rig.emu.send(
      "POST", "factors", json: ["factor_type": "totp", "friendly_name": "phone"], bearer: rig.token)
    #expect(named.status == 422)
    #expect(named.errorCode == "mfa_factor_name_conflict")
    let phone = await rig.emu.send("POST", "factors", json: ["factor_type": "phone"], bearer: rig.token)
    #expect(phone.errorCode == "mfa_phone_enroll_not_enabled")
    let other = await rig.emu.send("POST", "factors", json: ["factor_type": "sms"], bearer: rig.token)
    #expect(other.status == 400)
    #expect(other.errorCode == "validation_failed")
  }

  @Test("challenge → expires_at in 300 s; a wrong code is 422 mfa_verification_failed; the right one an aal2 session")
  func verify() async throws {
    var rig = try await FactorRig()
    _ = try await rig.enroll()
    #expect(rig.session.claims["aal"] == "aal1")
    let challenge = await rig.challenge()
    #expect(challenge.status == 200)
    #expect(challenge.json["type"] == "totp")
    #expect(challenge.json["expires_at"]?.int == Int(rig.emu.clock.now().timeIntervalSince1970) + 300)
    let challengeID = try #require(challenge.json["id"]?.string)
    let wrong = await rig.verify(challengeID, rig.code(offset: 90))
    #expect(wrong.status == 422)
    #expect(wrong.json == ["code": "mfa_verification_failed", "message": "Invalid TOTP code entered"])
    let empty = await rig.verify(challengeID, "")
    #expect(empty.status == 400)
    let right = await rig.verify(challengeID, rig.code(offset: -30))
    #expect(right.status == 200, "the previous step is accepted: \(right.text)")
    #expect(right.json["token_type"] == "bearer")
    #expect(right.json["refresh_token"]?.string != rig.session.refreshToken)
    let claims = right.json.claims
    #expect(claims["aal"] == "aal2")
    #expect(claims["amr"]?.array?.compactMap { $0["method"]?.string } == ["totp", "password"])
    #expect(right.json["user"]?["factors"]?[0]?["status"] == "verified")
    let used = await rig.verify(challengeID, rig.code())
    #expect(used.errorCode == "mfa_ip_address_mismatch", "a challenge works once")
    // The aal2 refresh token keeps aal2; the old aal1 one was swapped out.
    let refreshed = await rig.emu.refresh(right.json.refreshToken)
    #expect(refreshed.json.claims["aal"] == "aal2")
  }

  @Test("a verified factor: password sign-in gives aal1 (JWT aal/amr), other aal1 sessions end at verify")
  func aal1AfterPassword() async throws {
    var rig = try await FactorRig()
    _ = try await rig.enroll()
    try await rig.verifyNow()
    let second = await rig.emu.signIn("mfa@example.com")
    #expect(second.status == 200)
    #expect(second.json.claims["aal"] == "aal1")
    #expect(second.json.claims["amr"]?[0]?["method"] == "password")
    #expect(second.json["user"]?["factors"]?.array?.count == 1)
    let third = await rig.emu.signIn("mfa@example.com")
    // Verifying in the second session ends the third (aal1) one.
    var other = rig
    other.session = second.json
    try await other.verifyNow()
    #expect(await rig.emu.send("GET", "user", bearer: third.json.accessToken).errorCode == "session_not_found")
    #expect(await rig.emu.send("GET", "user", bearer: other.session.accessToken).status == 200)
  }

  @Test("unenrol: a verified factor needs aal2 (422 insufficient_aal, as GoTrue answers); sessions go back to aal1")
  func unenroll() async throws {
    var rig = try await FactorRig()
    _ = try await rig.enroll()
    try await rig.verifyNow()
    let aal1 = await rig.emu.signIn("mfa@example.com").json
    let refused = await rig.emu.send("DELETE", "factors/\(rig.factorID)", bearer: aal1.accessToken)
    #expect(refused.status == 422)
    #expect(refused.json == ["code": "insufficient_aal", "message": "AAL2 required to unenroll verified factor"])
    let enrollMore = await rig.emu.send(
      "POST", "factors", json: ["factor_type": "totp", "friendly_name": "laptop"],
      bearer: aal1.accessToken)
    #expect(enrollMore.status == 403)
    #expect(enrollMore.errorCode == "insufficient_aal")
    let removed = await rig.emu.send("DELETE", "factors/\(rig.factorID)", bearer: rig.token)
    #expect(removed.status == 200)
    #expect(removed.json == ["id": .string(rig.factorID)])
    let refreshed = await rig.emu.refresh(rig.session.refreshToken)
    #expect(refreshed.json.claims["aal"] == "aal1")
    #expect(refreshed.json.claims["amr"]?.array?.compactMap { $0["method"]?.string } == ["password"])
    #expect(await rig.emu.send("GET", "user", bearer: rig.token).json["factors"] == nil, "factors,omitempty")
    let unknown = await rig.emu.send("DELETE", "factors/\(rig.factorID)", bearer: rig.token)
    #expect(unknown.status == 404)
    #expect(unknown.errorCode == "mfa_factor_not_found")
    #expect(await rig.emu.send("DELETE", "factors/nope", bearer: rig.token).errorCode == "validation_failed")
  }

  @Test("an unverified factor goes without aal2; a challenge expires after 300 s (422 mfa_challenge_expired)")
  func expiry() async throws {
    var rig = try await FactorRig()
    _ = try await rig.enroll()
    let challenge = await rig.challenge()
    rig.emu.clock.advance(301)
    let expired = await rig.verify(try #require(challenge.json["id"]?.string), rig.code())
    #expect(expired.status == 422)
    #expect(expired.errorCode == "mfa_challenge_expired")
    let unknown = await rig.verify(EmulatorRandom.uuid(), rig.code())
    #expect(unknown.errorCode == "mfa_factor_not_found")
    let bad = await rig.verify("not-a-uuid", rig.code())
    #expect(bad.errorCode == "bad_json")
    #expect(await rig.emu.send("DELETE", "factors/\(rig.factorID)", bearer: rig.token).status == 200)
  }

  @Test("anonymous users may not touch factors; no token is 401")
  func anonymous() async throws {
    let emu = try TestEmulator { $0.anonymousSignIns = true }
    let anon = await emu.send("POST", "signup", json: [:]).json
    #expect(anon.claims["is_anonymous"] == true)
    let refused = await emu.send("POST", "factors", json: ["factor_type": "totp"], bearer: anon.accessToken)
    #expect(refused.status == 403)
    #expect(
      refused.json == ["code": "no_authorization", "message": "Anonymous user not allowed to perform these actions"])
    #expect(await emu.send("POST", "factors", json: ["factor_type": "totp"]).status == 401)
  }

  @Test("admin: factors on GET /admin/users/{id} but not on the list; list, rename and delete a user's factors")
  func admin() async throws {
    var rig = try await FactorRig()
    _ = try await rig.enroll()
    try await rig.verifyNow()
    let key = rig.emu.serviceRoleKey
    let userID = try #require(rig.session["user"]?["id"]?.string)
    let listed = await rig.emu.send("GET", "admin/users", bearer: key).json["users"]?[0]
    #expect(listed?["factors"] == nil)
    #expect(listed?["identities"] == .null)
    let loaded = await rig.emu.send("GET", "admin/users/\(userID)", bearer: key).json
    #expect(loaded["factors"]?.array?.count == 1)
    #expect(loaded["identities"]?.array?.count == 1)
    let factors = await rig.emu.send("GET", "admin/users/\(userID)/factors", bearer: key)
    #expect(factors.json.array?.compactMap { $0["id"]?.string } == [rig.factorID])
    let renamed = await rig.emu.send(
      "PUT", "admin/users/\(userID)/factors/\(rig.factorID)", json: ["friendly_name": "old phone"], bearer: key)
    #expect(renamed.json["friendly_name"] == "old phone")
    let deleted = await rig.emu.send("DELETE", "admin/users/\(userID)/factors/\(rig.factorID)", bearer: key)
    #expect(deleted.status == 200)
    #expect(deleted.json["id"]?.string == rig.factorID)
    #expect(await rig.emu.send("GET", "admin/users/\(userID)/factors", bearer: key).json == [])
    #expect(await rig.emu.refresh(rig.session.refreshToken).json.claims["aal"] == "aal1", "the session is downgraded")
    #expect(
      await rig.emu.send("DELETE", "admin/users/\(userID)/factors/\(rig.factorID)", bearer: key).errorCode
        == "mfa_factor_not_found")
    #expect(await rig.emu.send("GET", "admin/users/\(userID)/factors", bearer: rig.token).errorCode == "not_admin")
    #expect(
      await rig.emu.send("GET", "admin/users/\(EmulatorRandom.uuid())/factors", bearer: key).errorCode
        == "user_not_found")
  }

  @Test("factors, challenges and aal2 sessions survive a restart with --state")
  func persistence() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("factors-\(UUID().uuidString).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    var rig = try await FactorRig(store: try SQLiteDocumentStore(path: path))
    _ = try await rig.enroll()
    try await rig.verifyNow()
    let challenge = await rig.challenge()
    rig.emu.emulator.store.close()
    let reopened = try TestEmulator(store: try SQLiteDocumentStore(path: path))
    let user = await reopened.send("GET", "user", bearer: rig.token)
    #expect(user.json["factors"]?[0]?["status"] == "verified")
    #expect(await reopened.refresh(rig.session.refreshToken).json.claims["aal"] == "aal2")
    var again = rig
    again = FactorRig(emu: reopened, session: rig.session, factorID: rig.factorID, secret: rig.secret)
    #expect(await again.verify(try #require(challenge.json["id"]?.string), again.code()).status == 200)
    reopened.emulator.store.close()
  }
}

extension FactorRig {
  init(store: any DocumentStore) async throws {
    emu = try TestEmulator(store: store)
    session = await emu.signUp("mfa@example.com").json
  }

  init(emu: TestEmulator, session: JSON, factorID: String, secret: String) {
    self.emu = emu
    self.session = session
    self.factorID = factorID
    self.secret = secret
  }
}
