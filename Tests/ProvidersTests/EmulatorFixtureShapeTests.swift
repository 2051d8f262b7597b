import AuthEmulator
import AuthTestSupport
import Foundation
import HTTPServerKit
import JSONKit
import OneTimeCode
import Testing

/// The emulator's answers for second factors, the audit trail and accounts without a password
/// carry the same keys (recursively, with the same JSON types) as the recorded production shapes
/// in Fixtures/ (written from GoTrue's sources and the Identity Toolkit v2 API spec), so a client
/// that passes against one reads the other.
@Suite struct EmulatorFixtureShapeTests {
  /// Keys and value types, recursively; an array by the shape of its first element.
  static func shape(_ json: JSON) -> JSON {
    switch json {
    case .object(let object):
      return .object(JSONObject(object.pairs.map { ($0.key, shape($0.value)) }.sorted { $0.0 < $1.0 }))
    case .array(let items): return .array(items.first.map { [shape($0)] } ?? [])
    case .int, .double: return "number"
    case .string: return "string"
    case .bool: return "bool"
    case .null: return "null"
    }
  }

  static func fixture(_ name: String) throws -> JSON { try JSON.parse(Fixture.text(name)) }

  static func expectSameShape(_ answer: JSON, _ fixture: String, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    let expected = shape(try Self.fixture(fixture))
    #expect(
      shape(answer) == expected, "\(fixture): \(shape(answer).compactText) vs \(expected.compactText)",
      sourceLocation: sourceLocation)
  }

  static func claims(_ token: String) -> JSON { EmulatorJWT.decodePayload(token) ?? .null }

  struct Client {
    let emulator: Emulator
    func send(_ method: String, _ path: String, _ body: JSON? = nil, bearer: String? = nil) async -> (
      status: Int, json: JSON
    ) {
      var headers: [(name: String, value: String)] = [
        ("Host", "127.0.0.1:54321"), ("X-Supabase-Api-Version", "2024-01-01"),
        ("Content-Type", "application/json"),
      ]
      if let bearer { headers.append(("Authorization", "Bearer " + bearer)) }
      let response = await emulator.handle(
        ServerRequest(method: method, uri: path, headers: headers, body: body?.bytes ?? []))
      return (response.status, (try? JSON.parse(bytes: response.body)) ?? .null)
    }
  }

  @Test func supabaseFactorsAuditAndErrors() async throws {
    var config = EmulatorConfig()
    config.port = 0
    let client = Client(emulator: try Emulator(config: config))
    let auth = "/auth/v1"
    let signUp = await client.send(
      "POST", auth + "/signup", ["email": "ada@example.com", "password": "correct-horse-1"]
    ).json
    let token = signUp["access_token"]?.string ?? ""
    let enrolled = await client.send(
      "POST", auth + "/factors", ["factor_type": "totp", "friendly_name": "phone"], bearer: token
    ).json
    try Self.expectSameShape(enrolled, "supabase/factor_enroll_totp.json")
    let factorID = enrolled["id"]?.string ?? ""
    let secret = enrolled["totp"]?["secret"]?.string ?? ""
    let challenge = await client.send("POST", auth + "/factors/\(factorID)/challenge", [:], bearer: token).json
    try Self.expectSameShape(challenge, "supabase/factor_challenge.json")
    let challengeID = challenge["id"]?.string ?? ""
    let wrong = await client.send(
      "POST", auth + "/factors/\(factorID)/verify", ["challenge_id": .string(challengeID), "code": "000000"],
      bearer: token)
    #expect(wrong.status == 422)
    #expect(wrong.json == (try Self.fixture("supabase/error_mfa_verification_failed.json")))
    let code = TOTP.code(secret: secret, at: Date()) ?? ""
    let verified = await client.send(
      "POST", auth + "/factors/\(factorID)/verify", ["challenge_id": .string(challengeID), "code": .string(code)],
      bearer: token
    ).json
    try Self.expectSameShape(verified, "supabase/factor_verify_session.json")
    let fixtureToken = try Self.fixture("supabase/factor_verify_session.json")["access_token"]?.string ?? ""
    #expect(Self.shape(Self.claims(verified["access_token"]?.string ?? "")) == Self.shape(Self.claims(fixtureToken)))
    let aal2 = verified["access_token"]?.string ?? ""
    try Self.expectSameShape(
      await client.send("GET", auth + "/user", bearer: aal2).json, "supabase/user_with_factors.json")
    let aal1 = await client.send(
      "POST", auth + "/token?grant_type=password", ["email": "ada@example.com", "password": "correct-horse-1"]
    ).json
    let refused = await client.send("DELETE", auth + "/factors/\(factorID)", bearer: aal1["access_token"]?.string)
    #expect(refused.status == 422)
    #expect(refused.json == (try Self.fixture("supabase/error_insufficient_aal.json")))
    let key = client.emulator.serviceRoleKey
    let userID = verified["user"]?["id"]?.string ?? ""
    try Self.expectSameShape(
      await client.send("GET", auth + "/admin/users/\(userID)/factors", bearer: key).json,
      "supabase/admin/factors_list.json")
    try Self.expectSameShape(
      await client.send("DELETE", auth + "/factors/\(factorID)", bearer: aal2).json, "supabase/factor_unenroll.json")
    let missing = await client.send("DELETE", auth + "/factors/\(factorID)", bearer: aal2)
    #expect(missing.json == (try Self.fixture("supabase/error_mfa_factor_not_found.json")))
    #expect(
      await client.send("POST", auth + "/otp", ["email": "nobody@example.com", "create_user": false]).json
        == (try Self.fixture("supabase/error_otp_disabled.json")))
    // Audit entries: the same envelope; payload keys from GoTrue's set (actor_name and traits
    // come and go with the entry).
    let trail = await client.send("GET", auth + "/admin/audit", bearer: key).json.array ?? []
    let payloadKeys: Set = [
      "action", "actor_id", "actor_name", "actor_username", "actor_via_sso", "log_type", "traits",
    ]
    for entry in (try Self.fixture("supabase/admin/audit_page.json").array ?? []) + trail {
      #expect(Set(entry.object?.keys ?? []) == ["id", "payload", "created_at", "ip_address"])
      let keys = Set(entry["payload"]?.object?.keys ?? [])
      #expect(keys.isSubset(of: payloadKeys))
    }
    let login = try #require(trail.first { $0["payload"]?["action"] == "login" })
    let fixtureLogin = try #require(try Self.fixture("supabase/admin/audit_page.json")[0])
    #expect(Self.shape(login) == Self.shape(fixtureLogin))
    let expired = try Self.fixture("supabase/error_mfa_challenge_expired.json")
    #expect(expired["code"] == "mfa_challenge_expired")
  }

  @Test func firebaseSecondFactorsAndFederatedSignIn() async throws {
    var config = EmulatorConfig()
    config.port = 0
    config.likeProduction = true  // production names displayName in sign-in answers
    let client = Client(emulator: try Emulator(config: config))
    let v1 = "/identitytoolkit.googleapis.com/v1/accounts:"
    let v2 = "/identitytoolkit.googleapis.com/v2/accounts/"
    let admin = "/identitytoolkit.googleapis.com/v1/projects/demo-authsh/accounts:"
    let ownerHeaders = "owner"
    _ = await client.send(
      "POST", "/identitytoolkit.googleapis.com/v1/projects/demo-authsh/accounts",
      [
        "email": "ada@example.com", "password": "correct-horse-1", "emailVerified": true, "displayName": "Ada Lovelace",
      ],
      bearer: ownerHeaders)
    // The recorded project has TOTP switched on in its `mfa` config (production refuses otherwise).
    _ = await client.send(
      "PATCH", "/identitytoolkit.googleapis.com/v2/projects/demo-authsh/config?updateMask=mfa",
      ["mfa": ["providerConfigs": [["state": "ENABLED", "totpProviderConfig": ["adjacentIntervals": 5]]]]],
      bearer: ownerHeaders)
    let signIn = await client.send(
      "POST", v1 + "signInWithPassword?key=k", ["email": "ada@example.com", "password": "correct-horse-1"]
    ).json
    let idToken = signIn["idToken"]?.string ?? ""
    let start = await client.send(
      "POST", v2 + "mfaEnrollment:start?key=k", ["idToken": .string(idToken), "totpEnrollmentInfo": [:]]
    ).json
    try Self.expectSameShape(start, "firebase/mfa_enrollment_start.json")
    let info = start["totpSessionInfo"] ?? .null
    let secret = info["sharedSecretKey"]?.string ?? ""
    let wrong = await client.send(
      "POST", v2 + "mfaEnrollment:finalize?key=k",
      [
        "idToken": .string(idToken),
        "totpVerificationInfo": ["sessionInfo": info["sessionInfo"] ?? .null, "verificationCode": "000000"],
      ])
    #expect(wrong.json == (try Self.fixture("firebase/error_INVALID_CODE.json")))
    let finalize = await client.send(
      "POST", v2 + "mfaEnrollment:finalize?key=k",
      [
        "idToken": .string(idToken), "displayName": "phone",
        "totpVerificationInfo": [
          "sessionInfo": info["sessionInfo"] ?? .null,
          "verificationCode": .string(TOTP.code(secret: secret, at: Date()) ?? ""),
        ],
      ]
    ).json
    try Self.expectSameShape(finalize, "firebase/mfa_enrollment_finalize.json")
    let fixtureClaims = Self.claims(try Self.fixture("firebase/mfa_enrollment_finalize.json")["idToken"]?.string ?? "")
    #expect(
      Self.shape(Self.claims(finalize["idToken"]?.string ?? "")["firebase"] ?? .null)
        == Self.shape(fixtureClaims["firebase"] ?? .null))
    let pending = await client.send(
      "POST", v1 + "signInWithPassword?key=k", ["email": "ada@example.com", "password": "correct-horse-1"]
    ).json
    try Self.expectSameShape(pending, "firebase/signin_mfa_pending.json")
    let enrollmentID = pending["mfaInfo"]?[0]?["mfaEnrollmentId"] ?? .null
    let badPending = await client.send(
      "POST", v2 + "mfaSignIn:finalize?key=k",
      [
        "mfaPendingCredential": "AEPnyOvJ", "mfaEnrollmentId": enrollmentID,
        "totpVerificationInfo": ["verificationCode": "000000"],
      ])
    #expect(badPending.json == (try Self.fixture("firebase/error_INVALID_MFA_PENDING_CREDENTIAL.json")))
    let done = await client.send(
      "POST", v2 + "mfaSignIn:finalize?key=k",
      [
        "mfaPendingCredential": pending["mfaPendingCredential"] ?? .null, "mfaEnrollmentId": enrollmentID,
        "totpVerificationInfo": ["verificationCode": .string(TOTP.code(secret: secret, at: Date()) ?? "")],
      ]
    ).json
    try Self.expectSameShape(done, "firebase/mfa_signin_finalize.json")
    let lookup = await client.send("POST", admin + "lookup", ["email": ["ada@example.com"]], bearer: ownerHeaders).json
    try Self.expectSameShape(lookup, "firebase/admin_lookup_mfa.json")
    let withdraw = await client.send(
      "POST", v2 + "mfaEnrollment:withdraw?key=k",
      ["idToken": done["idToken"] ?? .null, "mfaEnrollmentId": enrollmentID]
    ).json
    try Self.expectSameShape(withdraw, "firebase/mfa_enrollment_withdraw.json")
    let gone = await client.send(
      "POST", v2 + "mfaEnrollment:withdraw?key=k",
      ["idToken": done["idToken"] ?? .null, "mfaEnrollmentId": enrollmentID])
    #expect(gone.json == (try Self.fixture("firebase/error_MFA_ENROLLMENT_NOT_FOUND.json")))
    // Google through the fake IdP, and an e-mail-link account.
    let google = EmulatorJWT.unsigned([
      "sub": "109876543210987654321", "email": "gus@example.com", "email_verified": true, "name": "Gus Google",
      "given_name": "Gus", "family_name": "Google", "picture": "https://lh3.googleusercontent.com/a/photo",
    ])
    let idp = await client.send(
      "POST", v1 + "signInWithIdp?key=k",
      [
        "requestUri": "http://localhost", "returnSecureToken": true,
        "postBody": .string("id_token=\(google)&providerId=google.com"),
      ]
    ).json
    try Self.expectSameShape(idp, "firebase/signin_idp_google.json")
    try Self.expectSameShape(
      await client.send("POST", admin + "lookup", ["email": ["gus@example.com"]], bearer: ownerHeaders).json,
      "firebase/admin_lookup_google.json")
    _ = await client.send(
      "POST", v1 + "sendOobCode?key=k", ["requestType": "EMAIL_SIGNIN", "email": "link@example.com"])
    let code = client.emulator.outbox.messages(to: "link@example.com").last?.code ?? ""
    let link = await client.send(
      "POST", v1 + "signInWithEmailLink?key=k", ["email": "link@example.com", "oobCode": .string(code)]
    ).json
    try Self.expectSameShape(link, "firebase/signin_email_link.json")
    try Self.expectSameShape(
      await client.send("POST", admin + "lookup", ["email": ["link@example.com"]], bearer: ownerHeaders).json,
      "firebase/admin_lookup_email_link.json")
  }
}
