import Essentials
import JSONKit

/// An account's sessions as the web console lists and ends them. GoTrue has no admin endpoint for
/// either (Studio shows no sessions); ending one is what `POST /logout` does to it.
extension SupabaseAPI {
  /// A session with its refresh tokens, oldest first (the revoked ones kept for reuse detection).
  struct SessionListing: Sendable {
    var session: SBSession
    var refreshTokens: [SBRefreshToken]

    /// The token a refresh answers with next, if the session still has one.
    var activeToken: SBRefreshToken? { refreshTokens.last { !$0.revoked } }
  }

  /// The account's sessions, oldest first.
  func sessionListings(ofUser userID: String) -> [SessionListing] {
    state.read { data in
      data.sessions(ofUser: userID).sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.map { session in
        SessionListing(session: session, refreshTokens: data.refreshTokens(ofSession: session.id))
      }
    }
  }

  /// Ends the account's session `sessionID`, or every session when nil, as `POST /logout` ends
  /// them (scope `local` for one, `global` for all): a `logout` audit entry, then each session
  /// removed with its refresh tokens, so a refresh answers `refresh_token_not_found` and the
  /// session's access tokens `session_not_found`. Returns how many sessions ended.
  func endSessions(ofUser userID: String, only sessionID: String?) throws -> Int {
    let now = self.now
    return try state.transaction { data in
      guard let user = data.users[userID] else { return 0 }
      let ended = data.sessions(ofUser: userID).filter { sessionID == nil || $0.id == sessionID }
      guard !ended.isEmpty else { return 0 }
      data.recordAudit("logout", user: user, at: now)
      for session in ended { data.deleteSession(id: session.id) }
      return ended.count
    }
  }
}
