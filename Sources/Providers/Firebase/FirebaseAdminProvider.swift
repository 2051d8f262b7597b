import AuthCore

// SKELETON (foundation commit): helper G implements every method against Identity Toolkit.
/// Firebase Auth's admin API (Identity Toolkit `projects/{id}/accounts:*`) with an OAuth bearer.
public struct FirebaseAdminProvider: AdminProvider {
  public let kind = ProviderKind.firebase
  public let endpoint: String
  let tokens: any AccessTokenSource
  let client: WireClient
  let clock: any Clock

  public init(
    target: Target, tokens: any AccessTokenSource, transport: any HTTPTransport, clock: any Clock,
    trace: (@Sendable (String) -> Void)?
  ) {
    endpoint = target.url
    self.tokens = tokens
    client = WireClient(transport: transport, timeout: target.timeout, allowInsecureHTTP: target.allowInsecureHTTP, trace: trace)
    self.clock = clock
  }

  static let todo = AuthError(.notSupported, message: "Not built yet.")
  /// Until the real methods land: get the bearer first, so the credential path runs end to end.
  func todo() async throws -> Never {
    _ = try await tokens.accessToken()
    throw Self.todo
  }
  public func user(_ reference: UserReference) async throws -> AdminUser? { try await todo() }
  public func listUsers(_ query: UserListQuery) async throws -> UserPage { try await todo() }
  public func link(_ kind: AdminLinkKind, for user: AdminUser) async throws -> AdminLink { try await todo() }
  public func confirmEmail(_ user: AdminUser) async throws -> AdminUser { try await todo() }
  public func resendConfirmation(_ user: AdminUser) async throws { try await todo() }
  public func disable(_ user: AdminUser, forSeconds seconds: Int?) async throws -> AdminUser { try await todo() }
  public func enable(_ user: AdminUser) async throws -> AdminUser { try await todo() }
  public func setPassword(_ user: AdminUser, to password: String) async throws -> AdminUser { try await todo() }
  public func createUser(email: String, password: String?, confirmed: Bool, name: String?) async throws -> AdminUser {
    try await todo()
  }
  public func delete(_ user: AdminUser, soft: Bool) async throws { try await todo() }
  public func signOut(_ user: AdminUser) async throws { try await todo() }
  public func settings() async throws -> ProjectSettings { try await todo() }
  public func latestMail(to email: String) async throws -> InboxMessage? { try await todo() }
}
