import AuthCore

/// Makes the admin provider for a target and credential.
package enum AdminProviderFactory {
  package static func make(
    _ target: Target, credential: AdminCredential, transport: any HTTPTransport, clock: any Clock = SystemClock(),
    trace: (@Sendable (String) -> Void)? = nil, secrets: (@Sendable (String) -> Void)? = nil
  ) -> any AdminProvider {
    switch target.provider {
    case .supabase:
      return SupabaseAdminProvider(
        target: target, credential: credential, transport: transport, clock: clock, trace: trace)
    case .firebase:
      let tokens: any AccessTokenSource
      var projectId: String?
      var principal: String?
      if let grant = GoogleTokenSource.Grant(credential) {
        // The exchange honours the command's --timeout like every other request.
        tokens = GoogleTokenSource.shared(
          for: grant, transport: transport, clock: clock, timeout: target.timeout, trace: trace, secrets: secrets)
        principal = grant.principal
        switch grant {
        case .serviceAccount(let account): projectId = account.projectId
        case .impersonated(let impersonated):
          if case .serviceAccount(let account) = impersonated.source { projectId = account.projectId }
          projectId = projectId ?? impersonated.quotaProjectId
        case .authorizedUser(let user): projectId = user.quotaProjectId
        }
      } else {
        tokens = StaticAccessToken(token: "owner")
      }
      return FirebaseAdminProvider(
        target: target, tokens: tokens, transport: transport, clock: clock, trace: trace, projectId: projectId,
        principal: principal)
    }
  }
}

/// A fixed bearer (`owner` against an emulator).
package struct StaticAccessToken: AccessTokenSource {
  package let token: String
  package init(token: String) { self.token = token }
  package func accessToken() async throws -> String { token }
}
