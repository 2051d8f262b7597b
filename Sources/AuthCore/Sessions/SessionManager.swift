/// Loads the session of one backend and refreshes it before it expires: tokens are
/// exchanged when expired or within 60 s of expiry; if the exchange is refused the session is
/// removed and the caller gets `session_expired`, worded after what the server said.
package struct SessionManager: Sendable {
  package let store: any SessionStore
  /// The store key: the canonical `BackendKey` of the backend (historically a profile name).
  package let profile: String
  package let clock: any Clock
  /// Refresh when the token expires within this many seconds.
  package let refreshMargin: Int
  /// How long `reset` holds an address back; older holds are dropped from the store.
  package static let resetHoldSeconds = 60

  package init(store: any SessionStore, profile: String, clock: any Clock, refreshMargin: Int = 60) {
    self.store = store
    self.profile = profile
    self.clock = clock
    self.refreshMargin = refreshMargin
  }

  package init(store: any SessionStore, backend: BackendKey, clock: any Clock, refreshMargin: Int = 60) {
    self.init(store: store, profile: backend.canonical, clock: clock, refreshMargin: refreshMargin)
  }

  /// The stored state for this backend. A state saved for another backend (or not saying which)
  /// comes back empty: its session is never shown or sent.
  package func state() throws -> ProfileState {
    let (state, _) = try load()
    return state
  }

  /// The stored session as it is (no network), or nil.
  package func storedSession() throws -> AuthSession? { try usable(state()).session }

  /// The stored session without its secrets where the store keeps them apart (`status`: user and
  /// expiry, empty tokens, the keyring left locked), or nil.
  package func storedSummary() throws -> AuthSession? {
    let state = try store.loadSummary(profile: profile)
    if let owner = state.backend, owner != profile { return nil }
    return try usable(state).session
  }

  /// Where this backend's session is kept.
  package var location: SessionLocation { store.location(profile: profile) }

  /// Throws when sessions cannot be kept at all (`credential_store = "keyring"` without a keyring).
  package func checkAvailable() throws { try store.checkAvailable() }

  /// A session that is valid for at least `refreshMargin` seconds, refreshing through `provider`.
  package func activeSession(provider: any AuthProvider) async throws -> AuthSession {
    let (state, foreign) = try load()
    if let foreign { throw foreignSession(foreign) }
    guard let session = try usable(state).session else { throw AuthError(.notAuthenticated) }
    guard session.expiresIn(now: clock.unixNow) <= refreshMargin else { return session }
    return try await refresh(session, provider: provider, after: nil)
  }

  /// Exchanges the refresh token now (the `refresh` command).
  package func refreshNow(provider: any AuthProvider) async throws -> AuthSession {
    let (state, foreign) = try load()
    if let foreign { throw foreignSession(foreign) }
    _ = try usable(state)
    guard let session = state.session else { throw AuthError(.notAuthenticated) }
    return try await refresh(session, provider: provider, after: nil)
  }

  /// Runs `call` with the active session. When the server refuses the access token (401/403,
  /// `session_expired`), the refresh token is tried once and `call` repeated with the new tokens;
  /// only a refused refresh ends the session.
  package func authorized<T>(provider: any AuthProvider, _ call: (AuthSession) async throws -> T) async throws
    -> (value: T, session: AuthSession)
  {
    let session = try await activeSession(provider: provider)
    do {
      return (try await call(session), session)
    } catch let refused as AuthError where refused.code == .sessionExpired {
      let fresh = try await refresh(session, provider: provider, after: refused)
      do {
        return (try await call(fresh), fresh)
      } catch let again as AuthError where again.code == .sessionExpired {
        try save(session: nil)
        throw SessionEnd.refusedAfterRefresh(again)
      }
    }
  }

  /// The state, or the error that says why its saved session cannot be used.
  private func usable(_ state: ProfileState) throws -> ProfileState {
    if let problem = state.sessionProblem { throw problem }
    return state
  }

  private func refresh(_ session: AuthSession, provider: any AuthProvider, after callError: AuthError?) async throws
    -> AuthSession
  {
    let fresh: AuthSession
    do {
      fresh = try await provider.refresh(session)
    } catch let error as AuthError where error.code == .sessionExpired {
      try save(session: nil)
      throw SessionEnd.refreshRefused(error, after: callError)
    }
    // Sent and answered: the server has rotated the refresh token, so a save that fails (a full
    // disk) is an I/O failure (exit 74) that says so, not a configuration found before sending.
    do {
      try save(session: fresh)
    } catch let error as AuthError {
      throw AuthError(
        .sessionNotSaved,
        message: "The tokens were refreshed, but the new session could not be saved: \(error.message)",
        hint: error.hint
          ?? "Free some space where sessions are kept, then log in again: the server has replaced the saved refresh token."
      )
    }
    return fresh
  }

  package func save(session: AuthSession?) throws {
    try update {
      $0.session = session
      $0.keyringSession = nil
    }
  }

  package func update(_ change: (inout ProfileState) -> Void) throws {
    var (state, _) = try load()
    change(&state)
    state.backend = profile
    state.pruneResetHolds(now: clock.unixNow, window: Self.resetHoldSeconds)
    if state.isEmpty {
      try store.clear(profile: profile)
    } else {
      try store.save(state, profile: profile)
    }
  }

  /// The state (pruned of stale reset holds) and, when it belongs to another backend, that
  /// backend (`""` when the stored state does not say).
  private func load() throws -> (ProfileState, foreign: String?) {
    var state = try store.load(profile: profile)
    if let owner = state.backend, owner != profile {
      return (ProfileState(), state.session == nil ? nil : owner)
    }
    state.pruneResetHolds(now: clock.unixNow, window: Self.resetHoldSeconds)
    return (state, nil)
  }

  private func foreignSession(_ owner: String) -> AuthError {
    let issuer = owner.isEmpty ? "a backend it does not record" : owner
    return AuthError(
      .notAuthenticated,
      message: "The saved session belongs to \(issuer), not to \(profile); it was not sent.",
      hint: "Log in again to replace it.")
  }
}
