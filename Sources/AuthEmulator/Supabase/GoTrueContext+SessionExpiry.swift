/// Session lifetime (`models/sessions.go` `CheckValidity`): GoTrue's timebox and inactivity
/// timeout, plus a cap on sessions per user. Ended sessions are pruned with their refresh tokens,
/// so memory and the state file stay bounded however often users sign in.
extension GoTrueContext {
  /// Refresh tokens kept per session: the active one and the newest revoked ones (reuse detection).
  static let refreshTokensKeptPerSession = 50
  /// Sign-ins between two sweeps of every session for expired ones.
  static let sessionSweepInterval = 1024

  /// The `session_expired` error when the session is past its timebox or idle too long, else nil.
  func expiryError(of session: SBSession, now: Micros) -> GoTrueError? {
    if config.sessionTimebox > 0, now >= session.createdAt + Micros(config.sessionTimebox) * 1_000_000 {
      return .badRequest("session_expired", "Invalid Refresh Token: Session Expired")
    }
    if config.sessionInactivityTimeout > 0,
      now >= session.updatedAt + Micros(config.sessionInactivityTimeout) * 1_000_000
    {
      return .badRequest("session_expired", "Invalid Refresh Token: Session Expired (Inactivity)")
    }
    return nil
  }

  /// Before a new session of this user: drops the user's expired sessions and the oldest ones
  /// beyond the cap (leaving room for the new one); now and then sweeps every user.
  func pruneSessions(beforeStartingFor userID: String, in data: inout SupabaseData, now: Micros) {
    data.sessionStartsSinceSweep += 1
    if data.sessionStartsSinceSweep >= Self.sessionSweepInterval {
      data.sessionStartsSinceSweep = 0
      pruneExpiredSessions(in: &data, now: now)
    }
    var live: [SBSession] = []
    for session in data.sessions(ofUser: userID) {
      if expiryError(of: session, now: now) != nil { data.deleteSession(id: session.id) } else { live.append(session) }
    }
    let excess = live.count - max(0, config.maxSessionsPerUser - 1)
    guard excess > 0 else { return }
    // Oldest first: by creation time, then by the first token's sequence (sign-ins in one microsecond).
    let keyed = live.map { session in
      ((session.createdAt, data.refreshTokens(ofSession: session.id).first?.sequence ?? 0), session.id)
    }
    let oldest = keyed.sorted { $0.0 < $1.0 }.prefix(excess)
    for (_, id) in oldest { data.deleteSession(id: id) }
  }

  /// Deletes every expired session (at start-up and every `sessionSweepInterval` sign-ins).
  func pruneExpiredSessions(in data: inout SupabaseData, now: Micros) {
    guard config.sessionTimebox > 0 || config.sessionInactivityTimeout > 0 else { return }
    let expired = data.sessions.values.filter { expiryError(of: $0, now: now) != nil }.map(\.id)
    for id in expired { data.deleteSession(id: id) }
  }
}
