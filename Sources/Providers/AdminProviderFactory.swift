import AuthCore

/// Makes the admin provider for a target and credential.
public enum AdminProviderFactory {
  public static func make(
    _ target: Target, credential: AdminCredential, transport: any HTTPTransport, clock: any Clock = SystemClock(),
    trace: (@Sendable (String) -> Void)? = nil, secrets: (@Sendable (String) -> Void)? = nil
  ) -> any AdminProvider {
    switch target.provider {
    case .supabase:
      return SupabaseAdminProvider(target: target, credential: credential, transport: transport, clock: clock, trace: trace)
    case .firebase:
      let tokens: any AccessTokenSource
      var projectId: String?
      var principal: String?
      switch credential {
      case .firebaseServiceAccount(let account):
        tokens = ServiceAccountTokenSource.shared(
          for: account, transport: transport, clock: clock, trace: trace, secrets: secrets)
        projectId = account.projectId
        principal = "the service account \(account.clientEmail)"
      default:
        tokens = StaticAccessToken(token: "owner")
      }
      return FirebaseAdminProvider(
        target: target, tokens: tokens, transport: transport, clock: clock, trace: trace, projectId: projectId,
        principal: principal)
    }
  }
}

/// A fixed bearer (`owner` against an emulator).
public struct StaticAccessToken: AccessTokenSource {
  public let token: String
  public init(token: String) { self.token = token }
  public func accessToken() async throws -> String { token }
}
