import AuthTestSupport
import Foundation
import JSONKit
import OneTimeCode
import Testing

@testable import AuthEmulator

extension FirebaseHarness {
  /// `POST …/v2/accounts/<operation>?key=…`.
  func v2(_ operation: String, _ body: JSON) async -> FirebaseReply {
    await send(
      "POST", "/identitytoolkit.googleapis.com/v2/accounts/\(operation)?key=fake-api-key", body: body.bytes,
      headers: [("Content-Type", "application/json")])
  }

  /// A signed-up account with a verified e-mail: its ID token.
  func verifiedAccount(_ email: String) async throws -> String {
    let signUp = await signUp(email)
    _ = await admin("accounts:update", ["localId": .string(signUp.string("localId")), "emailVerified": true])
    return await signIn(email).string("idToken")
  }

  /// Starts and finishes a TOTP enrolment: (enrolment id, secret, reply).
  func enrollTOTP(_ idToken: String, name: String = "phone") async throws -> (
    id: String, secret: String, reply: FirebaseReply
  ) {
    let start = await v2("mfaEnrollment:start", ["idToken": .string(idToken), "totpEnrollmentInfo": [:]])
    let info = try #require(start["totpSessionInfo"])
    let secret = try #require(info["sharedSecretKey"]?.string)
    let code = try #require(TOTP.code(secret: secret, at: clock.now()))
    let finish = await v2(
      "mfaEnrollment:finalize",
      [
        "idToken": .string(idToken), "displayName": .string(name),
        "totpVerificationInfo": ["sessionInfo": info["sessionInfo"] ?? .null, "verificationCode": .string(code)],
      ])
    let claims = firebaseClaims(finish.string("idToken"))
    return (claims["firebase"]?["second_factor_identifier"]?.string ?? "", secret, finish)
  }
}

@Suite("Firebase TOTP second factors (v2 mfaEnrollment / mfaSignIn)")
struct FirebaseMfaTests {
  @Test(
    "enrolment: a verified e-mail first; start answers totpSessionInfo; finalize checks the code and mints second-factor tokens"
  )
  func enrollment() async throws {
    let fb = try FirebaseHarness()
    let unverified = await fb.signUp("new@example.com").string("idToken")
    let refused = await fb.v2("mfaEnrollment:start", ["idToken": .string(unverified), "totpEnrollmentInfo": [:]])
    #expect(refused.error == "UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.")
    let idToken = try await fb.verifiedAccount("ada@example.com")
    let start = await fb.v2("mfaEnrollment:start", ["idToken": .string(idToken), "totpEnrollmentInfo": [:]])
    #expect(start.status == 200)
    let info = try #require(start["totpSessionInfo"]?.object)
    #expect(
      info.keys == [
        "sharedSecretKey", "verificationCodeLength", "hashingAlgorithm", "periodSec", "sessionInfo",
        "finalizeEnrollmentTime",
      ])
    #expect(info["verificationCodeLength"] == 6)
    #expect(info["hashingAlgorithm"] == "SHA1")
    #expect(info["periodSec"] == 30)
    #expect(info["finalizeEnrollmentTime"]?.string == FirebaseTime.iso8601(fb.clock.now().addingTimeInterval(600)))
    let wrong = await fb.v2(
      "mfaEnrollment:finalize",
      [
        "idToken": .string(idToken),
        "totpVerificationInfo": ["sessionInfo": info["sessionInfo"] ?? .null, "verificationCode": "000000"],
      ])
    #expect(wrong.status == 400)
    #expect(wrong.error == "INVALID_CODE")
    let unknown = await fb.v2(
      "mfaEnrollment:finalize",
      [
        "idToken": .string(idToken), "totpVerificationInfo": ["sessionInfo": "nope", "verificationCode": "000000"],
      ])
    #expect(unknown.error == "INVALID_SESSION_INFO")
    let phone = await fb.v2(
      "mfaEnrollment:start", ["idToken": .string(idToken), "phoneEnrollmentInfo": ["phoneNumber": "+15550100"]])
    #expect(phone.error == "OPERATION_NOT_ALLOWED : SMS based MFA not enabled.")
    let (id, _, finish) = try await fb.enrollTOTP(idToken)
    #expect(finish.status == 200)
    #expect(finish.json.object?.keys == ["idToken", "refreshToken"])
    let claims = firebaseClaims(finish.string("idToken"))
    #expect(claims["firebase"]?["sign_in_second_factor"] == "totp")
    #expect(id.count == 28)
    let lookup = await fb.admin("accounts:lookup", ["localId": [.string(claims["user_id"]?.string ?? "")]])
    let mfaInfo = try #require(lookup["users"]?[0]?["mfaInfo"]?[0])
    #expect(
      mfaInfo == [
        "mfaEnrollmentId": .string(id), "displayName": "phone",
        "enrolledAt": .string(FirebaseTime.iso8601(fb.clock.now())), "totpInfo": [:],
      ])
    let listed = await fb.admin("accounts:batchGet", method: "GET").json["users"]?.array ?? []
    #expect(listed.first { $0["email"] == "ada@example.com" }?["mfaInfo"]?.array?.count == 1)
    #expect(listed.first { $0["email"] == "new@example.com" }?["mfaInfo"] == nil)
  }

  @Test(
    "sign-in of an enrolled account: 200 with mfaPendingCredential and mfaInfo, no idToken; mfaSignIn:finalize with the code"
  )
  func signIn() async throws {
    let fb = try FirebaseHarness()
    let (id, secret, _) = try await fb.enrollTOTP(try await fb.verifiedAccount("ada@example.com"))
    let first = await fb.signIn("ada@example.com")
    #expect(first.status == 200)
    #expect(first.json.object?.keys == ["kind", "registered", "localId", "email", "mfaPendingCredential", "mfaInfo"])
    #expect(first["idToken"] == nil)
    #expect(first["mfaInfo"]?[0]?["mfaEnrollmentId"]?.string == id)
    #expect(first["mfaInfo"]?[0]?["totpInfo"] == [:])
    let pending = first.string("mfaPendingCredential")
    func finalize(_ code: String, enrollment: String? = nil) async -> FirebaseReply {
      await fb.v2(
        "mfaSignIn:finalize",
        [
          "mfaPendingCredential": .string(pending), "mfaEnrollmentId": .string(enrollment ?? id),
          "totpVerificationInfo": ["verificationCode": .string(code)],
        ])
    }
    #expect(await finalize("123456").error == "INVALID_CODE")
    #expect(
      await finalize(TOTP.code(secret: secret, at: fb.clock.now()) ?? "", enrollment: "nope").error
        == "MFA_ENROLLMENT_NOT_FOUND")
    #expect(
      await fb.v2("mfaSignIn:finalize", ["mfaEnrollmentId": .string(id)]).error
        == "MISSING_CREDENTIAL : Please set MFA Pending Credential.")
    #expect(
      await fb.v2(
        "mfaSignIn:finalize",
        [
          "mfaPendingCredential": "garbage", "mfaEnrollmentId": .string(id),
          "totpVerificationInfo": ["verificationCode": "123456"],
        ]
      ).error == "INVALID_MFA_PENDING_CREDENTIAL")
    let done = await finalize(TOTP.code(secret: secret, at: fb.clock.now() - 120) ?? "")
    #expect(done.status == 200, "Identity Platform accepts adjacent steps: \(done.text)")
    let claims = firebaseClaims(done.string("idToken"))
    #expect(claims["firebase"]?["sign_in_second_factor"] == "totp")
    #expect(claims["firebase"]?["second_factor_identifier"]?.string == id)
    #expect(claims["firebase"]?["sign_in_provider"] == "password")
    let refreshed = await fb.refresh(done.string("refreshToken"))
    #expect(firebaseClaims(refreshed.json["id_token"]?.string ?? "")["firebase"]?["sign_in_second_factor"] == "totp")
    #expect(
      await fb.v2("mfaSignIn:start", ["mfaPendingCredential": .string(pending), "mfaEnrollmentId": .string(id)]).error
        == "INVALID_ARGUMENT : MFA provider not supported!")
  }

  @Test("withdraw; accounts:update with mfa.enrollments [] removes every factor (lost phone), listing some keeps those")
  func removal() async throws {
    let fb = try FirebaseHarness()
    let idToken = try await fb.verifiedAccount("ada@example.com")
    let (first, _, reply) = try await fb.enrollTOTP(idToken)
    let (second, _, _) = try await fb.enrollTOTP(reply.string("idToken"), name: "tablet")
    let localId = firebaseClaims(idToken)["user_id"]?.string ?? ""
    let keep = await fb.admin(
      "accounts:update", ["localId": .string(localId), "mfa": ["enrollments": [["mfaEnrollmentId": .string(second)]]]])
    #expect(keep.status == 200, "\(keep.text)")
    var lookup = await fb.admin("accounts:lookup", ["localId": [.string(localId)]])
    #expect(lookup["users"]?[0]?["mfaInfo"]?.array?.compactMap { $0["mfaEnrollmentId"]?.string } == [second])
    #expect(await fb.admin("accounts:update", ["localId": .string(localId), "mfa": ["enrollments": []]]).status == 200)
    lookup = await fb.admin("accounts:lookup", ["localId": [.string(localId)]])
    #expect(lookup["users"]?[0]?["mfaInfo"] == nil)
    #expect(await fb.signIn("ada@example.com")["idToken"] != nil, "password alone signs in again")
    let (third, _, again) = try await fb.enrollTOTP(await fb.signIn("ada@example.com").string("idToken"))
    let withdrawn = await fb.v2(
      "mfaEnrollment:withdraw", ["idToken": .string(again.string("idToken")), "mfaEnrollmentId": .string(third)])
    #expect(withdrawn.status == 200)
    #expect(withdrawn["idToken"] != nil)
    #expect(
      await fb.v2(
        "mfaEnrollment:withdraw", ["idToken": .string(again.string("idToken")), "mfaEnrollmentId": .string(first)]
      ).error
        == "MFA_ENROLLMENT_NOT_FOUND")
  }

  @Test("enrolments, their secrets and started enrolments survive a restart with --state")
  func persistence() async throws {
    let store = FirebaseMemoryStore()
    let fb = try FirebaseHarness(store: store)
    let (id, secret, _) = try await fb.enrollTOTP(try await fb.verifiedAccount("ada@example.com"))
    let reopened = try FirebaseHarness(store: store, clock: fb.clock)
    let pending = await reopened.signIn("ada@example.com")
    let done = await reopened.v2(
      "mfaSignIn:finalize",
      [
        "mfaPendingCredential": pending["mfaPendingCredential"] ?? .null, "mfaEnrollmentId": .string(id),
        "totpVerificationInfo": ["verificationCode": .string(TOTP.code(secret: secret, at: fb.clock.now()) ?? "")],
      ])
    #expect(done.status == 200)
  }
}
