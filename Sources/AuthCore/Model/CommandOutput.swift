import JSONKit

/// How the JSON result model shows what an output carries: tokens, links and TOTP secrets as
/// `***` unless `revealTokens`; a session's decoded claims only with `includeClaims`.
package struct OutputShown: Sendable {
  package var now: Int
  package var revealTokens: Bool
  package var includeClaims: Bool

  package init(now: Int, revealTokens: Bool, includeClaims: Bool) {
    self.now = now
    self.revealTokens = revealTokens
    self.includeClaims = includeClaims
  }
}

/// One command's own output, under the result's envelope: each command returns one of these
/// types (`SessionOutput`, `AccountsOutput`, …). The JSON result model is the envelope (`schema`,
/// `ok`, `command`, `elapsed_ms`, `error`), then the output's fields, then `notes` and `output`;
/// renderers and the exit status ask the output's type, never the command's name.
package protocol CommandOutput: Sendable {
  /// Its fields of the JSON result model, in the model's order.
  func write(to object: inout JSONObject, _ shown: OutputShown)
  /// The session it carries (signed in, refreshed, shown), whose tokens the redactor learns.
  var session: AuthSession? { get }
  /// The accounts it looked up or acted on (`user …`), whose outcome sets the exit status.
  var lookups: [UserLookup] { get }
  /// Whether its answer is a yes: `diagnose` of an account that cannot sign in is not (exit 1,
  /// like grep), though the command itself worked.
  var isYes: Bool { get }
}

extension CommandOutput {
  package var session: AuthSession? { nil }
  package var lookups: [UserLookup] { [] }
  package var isYes: Bool { true }
}

/// The JSON parts several outputs share: the signed-in user and session, and accounts looked up.
enum OutputJSON {
  static func write(user: AuthUser?, session: AuthSession?, to object: inout JSONObject, _ shown: OutputShown) {
    if let user = user ?? session?.user { object["user"] = user.json }
    guard let session else { return }
    let mask: (String) -> JSON = { shown.revealTokens ? .string($0) : .string(Redactor.mask) }
    object["session"] = [
      "access_token": mask(session.accessToken), "refresh_token": mask(session.refreshToken),
      "expires_in": .int(session.expiresIn(now: shown.now)), "expires_at": .int(session.expiresAt),
      "token_type": .string(session.tokenType.lowercased()), "aal": .string(session.aal),
      "amr": .array(session.amr.map(JSON.string)),
    ]
    if shown.includeClaims, let claims = JWTClaims.decode(session.accessToken) { object["claims"] = claims }
  }

  /// `user` for exactly one account found; `users` (one entry per query) when there are more, one
  /// is missing, or `everyQuery` (`user show`: one shape whatever the count).
  static func write(lookups: [UserLookup], everyQuery: Bool, to object: inout JSONObject, _ shown: OutputShown) {
    let listed = lookups.map { CommandResult.lookupJSON($0, revealTokens: shown.revealTokens) }
    if everyQuery { object["users"] = .array(listed) }
    if let admin = lookups.first?.user, lookups.count == 1 {
      object["user"] = admin.json(revealTokens: shown.revealTokens)
    }
    if !everyQuery, lookups.count > 1 || lookups.contains(where: { $0.user == nil }) {
      object["users"] = .array(listed)
    }
  }
}
