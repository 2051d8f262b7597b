import AuthCore
import Essentials
import JSONKit

/// GoTrue's `/factors`: nothing in the password answer says a second step is due, so (as the
/// official clients' `getAuthenticatorAssuranceLevel` does) an `aal1` session of a user with a
/// verified factor is one whose second step is due.
extension SupabaseProvider {
  package func beginSignIn(email: String, password: String) async throws -> SignInStep {
    // The token answer's user carries `factors` (GoTrue loads them with the user; left out when none).
    let session = try await signIn(email: email, password: password)
    let verified = session.user.factors.filter { $0.status == .verified }
    guard !verified.isEmpty, session.aal != "aal2" else { return .signedIn(session) }
    return .secondFactorDue(PendingSecondFactor(email: email, factors: verified, firstStep: session))
  }

  package func finishSignIn(_ pending: PendingSecondFactor, factor: AuthFactor, code: String) async throws
    -> AuthSession
  {
    guard let first = pending.firstStep else { throw AuthError(.notAuthenticated) }
    return try await challengeAndVerify(first, factorID: factor.id, code: code)
  }

  /// `POST /factors/{id}/challenge`, then `/verify` with its id: the `aal2` session.
  func challengeAndVerify(_ session: AuthSession, factorID: String, code: String) async throws -> AuthSession {
    let path = "/factors/" + Self.pathSegment(factorID)
    let (challenge, challengeResponse) = try await call(
      "POST", path + "/challenge", body: .object(JSONObject()), bearer: session.accessToken, as: .mfa)
    let challengeID = try WireReader(json: challenge, response: challengeResponse).string("id")
    let body: JSON = ["challenge_id": .string(challengeID), "code": .string(code)]
    let (json, response) = try await call("POST", path + "/verify", body: body, bearer: session.accessToken, as: .mfa)
    var verified = try GoTrueDecoding.session(json, response: response, now: clock.unixNow)
    if verified.user.factors.isEmpty { verified.user.factors = session.user.factors }
    return verified
  }

  package func enrollTOTP(_ session: AuthSession, name: String?) async throws -> TOTPEnrollment {
    var body = JSONObject()
    body["factor_type"] = "totp"
    // GoTrue refuses a name the user's factors already have, an empty one included (422
    // `mfa_factor_name_conflict`), and keeps an abandoned challenged factor: without a name, one
    // that cannot be in use.
    let name = name.flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultFactorName(unixTime: clock.unixNow)
    body["friendly_name"] = .string(name)
    let (json, response) = try await call(
      "POST", "/factors", body: .object(body), bearer: session.accessToken, as: .mfa)
    let reader = WireReader(json: json, response: response)
    let id = try reader.string("id")
    guard let secret = json["totp"]?["secret"]?.string, let uri = json["totp"]?["uri"]?.string else {
      throw WireBody.missing("totp.secret", in: response)
    }
    return TOTPEnrollment(
      handle: id, secret: secret, uri: uri, name: json["friendly_name"]?.string ?? name, factorID: id)
  }

  package func verifyEnrollment(_ session: AuthSession, _ enrollment: TOTPEnrollment, code: String) async throws
    -> AuthSession
  {
    try await challengeAndVerify(session, factorID: enrollment.handle, code: code)
  }

  package func removeFactor(_ session: AuthSession, id: String) async throws -> AuthSession? {
    _ = try await call("DELETE", "/factors/" + Self.pathSegment(id), bearer: session.accessToken, as: .mfa)
    return nil
  }

  /// `TOTP 2026-11-29T08:15:00Z 3fa9`: the time of enrolment and four random hex digits.
  static func defaultFactorName(unixTime: Int) -> String {
    let suffix = String(UInt16.random(in: 0...UInt16.max), radix: 16)
    return "TOTP " + CivilTime.iso8601(seconds: unixTime) + " " + String(repeating: "0", count: 4 - suffix.count)
      + suffix
  }

  static func pathSegment(_ text: String) -> String {
    text.percentEncoded(keeping: "-._~")
  }
}
