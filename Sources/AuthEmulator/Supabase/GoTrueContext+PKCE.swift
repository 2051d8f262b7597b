import Essentials
import HTTPServerKit
import JSONKit

/// PKCE as GoTrue runs it (`pkce.go`, `token.go` `PKCE`): a request for a mail that carries a
/// code challenge stores a flow state and mails a `pkce_` token; its link redirects with
/// `?code=AUTH_CODE`; `POST /token?grant_type=pkce` (`SupabaseTokenRoutes`) trades the code and the
/// verifier for the session.
extension GoTrueContext {
  static let pkcePrefix = "pkce_"

  /// `generateFlowState`, for the user a mail is about to be sent to. Flows of the same user
  /// older than a day are dropped on the way (GoTrue's cleanup does the same to the table).
  func startFlow(
    _ pkce: PKCEChallenge, userID: String, method: String, provider: String, in data: inout SupabaseData,
    now: Micros
  ) throws {
    guard ["s256", "plain"].contains(pkce.method.lowercased()) else {
      throw GoTrueError.internal("unsupported code_challenge method \(GoTrueRedirects.goQuoted(pkce.method))")
    }
    let day: Micros = 86_400 * 1_000_000
    for old in data.flowStates.values where old.userID == userID && old.createdAt + day < now {
      data.deleteFlowState(id: old.id)
    }
    data.saveFlowState(
      SBFlowState(
        id: EmulatorRandom.uuid(), userID: userID, authCode: EmulatorRandom.uuid(), authenticationMethod: method,
        providerType: provider, codeChallenge: pkce.challenge, codeChallengeMethod: pkce.method.lowercased(),
        createdAt: now))
  }

  /// `ParseAuthenticationMethod` of a `/verify` type: the flow a PKCE link belongs to.
  static func flowMethod(forVerifyType type: String) -> String? {
    if type.hasSuffix("signup") { return "email/signup" }
    return ["recovery", "magiclink", "invite", "email_change"].contains(type) ? type : nil
  }

  /// `issueAuthCode`: the newest flow of this user and method gets its code issued now.
  func issueAuthCode(userID: String, method: String, in data: inout SupabaseData, now: Micros) throws -> String {
    let newest = data.flowStates.values.filter { $0.userID == userID && $0.authenticationMethod == method }
      .max { $0.createdAt < $1.createdAt }
    guard var flow = newest else {
      throw GoTrueError.badRequest(
        "flow_state_not_found", "No associated flow state found. 422: No valid flow state found for user.")
    }
    flow.authCodeIssuedAt = now
    data.saveFlowState(flow)
    return flow.authCode
  }

}
