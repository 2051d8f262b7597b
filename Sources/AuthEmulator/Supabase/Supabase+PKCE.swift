import Essentials
import HTTPServerKit
import JSONKit

/// PKCE as GoTrue runs it (`pkce.go`, `token.go` `PKCE`): a request for a mail that carries a
/// code challenge stores a flow state and mails a `pkce_` token; its link redirects with
/// `?code=AUTH_CODE`; `POST /token?grant_type=pkce` trades the code and the verifier for the session.
extension SupabaseAPI {
  static let pkcePrefix = "pkce_"

  /// `generateFlowState`, for the user a mail is about to be sent to. Flows of the same user
  /// older than a day are dropped on the way (GoTrue's cleanup does the same to the table).
  func startFlow(
    _ pkce: PKCEChallenge, userID: String, method: String, provider: String, in data: inout SupabaseData,
    now: Micros
  ) throws {
    guard ["s256", "plain"].contains(pkce.method.lowercased()) else {
      throw GoTrueError.internal("unsupported code_challenge method \(Self.goQuoted(pkce.method))")
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

  /// `POST /token?grant_type=pkce` `{auth_code, code_verifier}`: one exchange per code (the flow
  /// state is deleted with it, so a second one finds none).
  func pkceGrant(_ request: ServerRequest) throws -> ServerResponse {
    let params = try RequestParams(request)
    let authCode = try params.string("auth_code")
    let verifier = try params.string("code_verifier")
    if authCode.isEmpty || verifier.isEmpty {
      throw GoTrueError.validation("invalid request: both auth code and code verifier should be non-empty")
    }
    let now = self.now
    let started = try state.transaction { data -> (user: SBUser, session: SBSession, refreshToken: String) in
      guard let id = data.flowStateIDByAuthCode[authCode], let flow = data.flowStates[id],
        data.users[flow.userID] != nil
      else {
        throw GoTrueError.notFound("flow_state_not_found", "invalid flow state, no valid flow state found")
      }
      if flow.isExpired(at: now) {
        throw GoTrueError.unprocessable("flow_state_expired", "invalid flow state, flow state has expired")
      }
      if let mismatch = flow.verify(verifier) { throw GoTrueError.badRequest("bad_code_verifier", mismatch) }
      guard let user = data.users[flow.userID],
        let started = startSession(userID: user.id, method: flow.authenticationMethod, in: &data, now: now)
      else { throw GoTrueError.internal("Database error finding user") }
      data.recordAudit("login", user: user, traits: ["provider_type": .string(flow.providerType)], at: now)
      data.deleteFlowState(id: flow.id)
      return started
    }
    return json(
      bytes: sessionBody(
        user: started.user, session: started.session, refreshToken: started.refreshToken, request: request, now: now))
  }

  /// `prepPKCERedirectURL` and the query half of `prepErrorRedirectURL`/`prepRedirectURL`: the
  /// redirect's own query with `pairs` set, re-encoded as Go's `url.Values.Encode` does.
  static func settingQuery(_ pairs: [(String, String)], on target: String) -> String {
    let base: Substring
    var query: [(String, String)]
    if let mark = target.firstIndex(of: "?") {
      base = target[..<mark]
      query = FormCoding.decode(String(target[target.index(after: mark)...])).map { ($0.name, $0.value) }
    } else {
      base = Substring(target)
      query = []
    }
    for (name, value) in pairs {
      query.removeAll { $0.0 == name }
      query.append((name, value))
    }
    return String(base) + "?" + goQueryEncode(query)
  }
}
