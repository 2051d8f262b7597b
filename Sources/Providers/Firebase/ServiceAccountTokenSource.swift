import AuthCore

// SKELETON (foundation commit): helper E replaces this with the OAuth 2.0 JWT-bearer exchange.
/// Google OAuth access tokens for a service account: one exchange per process, cached until 60 s
/// before expiry.
public final class ServiceAccountTokenSource: AccessTokenSource, @unchecked Sendable {
  let account: ServiceAccount
  init(account: ServiceAccount) { self.account = account }

  public static func shared(
    for account: ServiceAccount, transport: any HTTPTransport, clock: any Clock, trace: (@Sendable (String) -> Void)?
  ) -> ServiceAccountTokenSource {
    ServiceAccountTokenSource(account: account)
  }

  public func accessToken() async throws -> String {
    throw AuthError(.notSupported, message: "Service-account sign-in is not built yet.")
  }
}
