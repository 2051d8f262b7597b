/// Loads the profile's session and refreshes it before it expires (SPEC §4): tokens are exchanged
/// when expired or within 60 s of expiry; if the exchange is refused the session is removed and the
/// caller gets `session_expired`.
public struct SessionManager: Sendable {
  public let store: any SessionStore
  public let profile: String
  public let clock: any Clock
  /// Refresh when the token expires within this many seconds.
  public let refreshMargin: Int

  public init(store: any SessionStore, profile: String, clock: any Clock, refreshMargin: Int = 60) {
    self.store = store
    self.profile = profile
    self.clock = clock
    self.refreshMargin = refreshMargin
  }

  public func state() throws -> ProfileState { try store.load(profile: profile) }

  /// The stored session as it is (no network), or nil.
  public func storedSession() throws -> AuthSession? { try usable(store.load(profile: profile)).session }

  /// A session that is valid for at least `refreshMargin` seconds, refreshing through `provider`.
  public func activeSession(provider: any AuthProvider) async throws -> AuthSession {
    var state = try usable(store.load(profile: profile))
    guard let session = state.session else { throw AuthError(.notAuthenticated) }
    guard session.expiresIn(now: clock.unixNow) <= refreshMargin else { return session }
    return try await refresh(session, provider: provider, state: &state)
  }

  /// Exchanges the refresh token now (the `refresh` command).
  public func refreshNow(provider: any AuthProvider) async throws -> AuthSession {
    var state = try usable(store.load(profile: profile))
    guard let session = state.session else { throw AuthError(.notAuthenticated) }
    return try await refresh(session, provider: provider, state: &state)
  }

  /// The state, or the error that says why its saved session cannot be used.
  private func usable(_ state: ProfileState) throws -> ProfileState {
    if let problem = state.sessionProblem { throw problem }
    return state
  }

  private func refresh(_ session: AuthSession, provider: any AuthProvider, state: inout ProfileState) async throws
    -> AuthSession
  {
    do {
      let fresh = try await provider.refresh(session)
      state.session = fresh
      try store.save(state, profile: profile)
      return fresh
    } catch let error as AuthError where error.code == .sessionExpired {
      state.session = nil
      try store.save(state, profile: profile)
      throw error
    }
  }

  public func save(session: AuthSession?) throws {
    var state = try store.load(profile: profile)
    state.session = session
    try store.save(state, profile: profile)
  }

  public func update(_ change: (inout ProfileState) -> Void) throws {
    var state = try store.load(profile: profile)
    change(&state)
    try store.save(state, profile: profile)
  }
}
