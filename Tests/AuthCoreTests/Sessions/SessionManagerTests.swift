import AuthCore
import Foundation
import Testing

/// A provider whose refresh answers are scripted.
final class ScriptedProvider: AuthProvider, @unchecked Sendable {
  let kind = ProviderKind.supabase
  let endpoint = "https://example.test/auth/v1"
  var refreshResult: Result<AuthSession, AuthError>
  var refreshCalls = 0
  init(_ refreshResult: Result<AuthSession, AuthError>) { self.refreshResult = refreshResult }
  func signUp(email: String, password: String, name: String?) async throws -> SignUpOutcome {
    throw AuthError(.notSupported)
  }
  func signIn(email: String, password: String) async throws -> AuthSession { throw AuthError(.notSupported) }
  func sendPasswordReset(email: String) async throws {}
  func confirmPasswordReset(codeOrLink: String, email: String?, newPassword: String) async throws -> AuthSession {
    throw AuthError(.notSupported)
  }
  func user(of session: AuthSession) async throws -> AuthUser { session.user }
  func refresh(_ session: AuthSession) async throws -> AuthSession {
    refreshCalls += 1
    return try refreshResult.get()
  }
  func signOut(_ session: AuthSession, scope: LogoutScope) async throws {}
  func latestMail(to email: String) async throws -> InboxMessage? { nil }
}

@Suite struct SessionManagerTests {
  let clock = ManualClock()
  let store = InMemorySessionStore()
  let user = AuthUser(id: "u1", email: "ada@example.com", emailConfirmed: true, provider: "email")

  func session(_ token: String, expiresIn: Int) -> AuthSession {
    AuthSession(accessToken: token, refreshToken: "r-" + token, expiresAt: clock.unixNow + expiresIn, user: user)
  }

  @Test func freshSessionIsUsedAsIs() async throws {
    try store.save(ProfileState(session: session("a", expiresIn: 3600)), profile: "p")
    let provider = ScriptedProvider(.failure(AuthError(.serverError)))
    let active = try await SessionManager(store: store, profile: "p", clock: clock).activeSession(provider: provider)
    #expect(active.accessToken == "a")
    #expect(provider.refreshCalls == 0)
  }

  @Test func sessionWithinSixtySecondsIsRefreshedAndSaved() async throws {
    try store.save(ProfileState(session: session("a", expiresIn: 59)), profile: "p")
    let provider = ScriptedProvider(.success(session("b", expiresIn: 3600)))
    let active = try await SessionManager(store: store, profile: "p", clock: clock).activeSession(provider: provider)
    #expect(active.accessToken == "b")
    #expect(try store.load(profile: "p").session?.accessToken == "b")
  }

  @Test func refusedRefreshRemovesTheSession() async throws {
    try store.save(
      ProfileState(session: session("a", expiresIn: -10), rememberedEmail: "ada@example.com"), profile: "p")
    let provider = ScriptedProvider(.failure(AuthError(.sessionExpired)))
    await #expect(throws: AuthError(.sessionExpired)) {
      try await SessionManager(store: store, profile: "p", clock: clock).activeSession(provider: provider)
    }
    #expect(try store.load(profile: "p").session == nil)
    #expect(try store.load(profile: "p").rememberedEmail == "ada@example.com", "only the session goes")
  }

  @Test func networkFailureDuringRefreshKeepsTheSession() async throws {
    try store.save(ProfileState(session: session("a", expiresIn: -10)), profile: "p")
    let provider = ScriptedProvider(.failure(AuthError(.networkUnreachable)))
    await #expect(throws: AuthError(.networkUnreachable)) {
      try await SessionManager(store: store, profile: "p", clock: clock).activeSession(provider: provider)
    }
    #expect(try store.load(profile: "p").session?.accessToken == "a")
  }

  @Test func noSessionIsNotAuthenticated() async {
    await #expect(throws: AuthError(.notAuthenticated)) {
      try await SessionManager(store: store, profile: "p", clock: clock).activeSession(
        provider: ScriptedProvider(.failure(AuthError(.serverError))))
    }
  }
}
