import AuthCore
import AuthTestSupport
import CurlTransport
import Foundation
import HTTPServerKit
import JSONKit
import Providers
import Testing

/// `FirebaseProvider`'s second step against recorded production answers: `signInWithPassword`
/// answering 200 with `mfaPendingCredential` and no `idToken` is a due second step (not a
/// malformed answer), and `v2/accounts/mfaSignIn:finalize` gets the credential, factor and code.
@Suite struct FirebaseSecondFactorReplayTests {
  static let v1 = "/identitytoolkit.googleapis.com/v1"
  static let v2 = "/identitytoolkit.googleapis.com/v2"

  final class Rig: @unchecked Sendable {
    let server = FixtureServer()
    var client: FirebaseProvider!

    init() async throws {
      try await server.start()
      let target = Target(
        provider: .firebase, profile: "prod", url: server.baseURL + FirebaseSecondFactorReplayTests.v1, key: "AIza-key",
        projectId: nil)
      client = FirebaseProvider(target: target, transport: CurlTransport(), clock: ManualClock(), trace: nil)
    }

    func answer(_ path: String, status: Int = 200, _ fixture: String) {
      server.on("POST", path, status: status, json: FirebaseAdminReplayTests.fixture(fixture))
    }

    func body(_ path: String) throws -> JSON {
      let request = try #require(server.requests.last { $0.path == path })
      return try JSON.parse(bytes: request.body)
    }
  }

  @Test func thePendingAnswerIsASecondStepAndFinalizeGivesAnAAL2Session() async throws {
    let rig = try await Rig()
    rig.answer(Self.v1 + "/accounts:signInWithPassword", "signin_mfa_pending.json")
    rig.answer(Self.v2 + "/accounts/mfaSignIn:finalize", "mfa_signin_finalize.json")
    let step = try await rig.client.beginSignIn(email: "ada@example.com", password: "correct-horse-1")
    guard case .secondFactorDue(let pending) = step else {
      Issue.record("expected a second step, got \(step)")
      return
    }
    #expect(
      pending.factors == [
        AuthFactor(id: "Xq3Lm8TzR2wKp5YbN7cVd1FhGj4s", kind: .totp, name: "phone", createdAt: "2026-01-01T00:00:00Z")
      ])
    let session = try await rig.client.finishSignIn(pending, factor: pending.factors[0], code: "123456")
    #expect(session.aal == "aal2")
    #expect(session.amr == ["password", "totp"])
    #expect(session.user.email == "ada@example.com")
    let sent = try rig.body(Self.v2 + "/accounts/mfaSignIn:finalize")
    #expect(
      sent["mfaPendingCredential"]?.string == "AEPnyOvJ8sXfKq3Tz7WmR1cLb5NhYg2dVu9EaPkIj4oQwSxZtCrFy6BlHnMeDpGvUa")
    #expect(sent["mfaEnrollmentId"]?.string == "Xq3Lm8TzR2wKp5YbN7cVd1FhGj4s")
    #expect(sent["totpVerificationInfo"]?["verificationCode"]?.string == "123456")
  }

  @Test func aPlainSignInOfAnMFAAccountIsMfaRequiredNotAnOutage() async throws {
    let rig = try await Rig()
    rig.answer(Self.v1 + "/accounts:signInWithPassword", "signin_mfa_pending.json")
    do {
      _ = try await rig.client.signIn(email: "ada@example.com", password: "correct-horse-1")
      Issue.record("expected mfa_required")
    } catch let error as AuthError {
      #expect(error.code == .mfaRequired)
      #expect(!error.isBackendFailure)
    }
  }

  @Test func aStalePendingCredentialIsARefusedCode() async throws {
    let rig = try await Rig()
    rig.answer(Self.v2 + "/accounts/mfaSignIn:finalize", status: 400, "error_INVALID_MFA_PENDING_CREDENTIAL.json")
    let pending = PendingSecondFactor(
      email: "ada@example.com", factors: [AuthFactor(id: "f1", kind: .totp)], pendingCredential: "stale")
    do {
      _ = try await rig.client.finishSignIn(pending, factor: pending.factors[0], code: "123456")
      Issue.record("expected mfa_invalid_code")
    } catch let error as AuthError {
      #expect(error.code == .mfaInvalidCode)
      #expect(error.providerCode == "INVALID_MFA_PENDING_CREDENTIAL")
    }
  }
}
