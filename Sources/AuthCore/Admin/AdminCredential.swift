/// The admin credential for a backend, as each ecosystem hands it out. Values are secrets: never
/// printed, logged, written to history, reports or any file authsh writes.
package enum AdminCredential: Sendable, Equatable {
  /// A legacy service_role JWT: sent as `apikey` and `Authorization: Bearer`.
  case supabaseServiceRole(String)
  /// A secret key `sb_secret_…`: sent as `apikey` only (GoTrue answers `bad_jwt` to a non-JWT bearer).
  case supabaseSecretKey(String)
  /// A Google service account (OAuth 2.0 JWT-bearer grant for an access token).
  case firebaseServiceAccount(ServiceAccount)
  /// Application Default Credentials of a user (refresh-token grant).
  case firebaseAuthorizedUser(AuthorizedUser)
  /// A service account impersonated with another credential (IAM Credentials).
  case firebaseImpersonated(ImpersonatedServiceAccount)
  /// Against an emulator host without a service account: `Bearer owner`, as the official SDKs do.
  case firebaseEmulatorOwner

  /// Every secret value inside, for the redactor.
  package var secrets: [String] {
    switch self {
    case .supabaseServiceRole(let key), .supabaseSecretKey(let key): return [key]
    case .firebaseServiceAccount(let account): return [account.privateKeyPEM, account.privateKeyId]
    case .firebaseAuthorizedUser(let user): return user.secrets
    case .firebaseImpersonated(let impersonated): return impersonated.secrets
    case .firebaseEmulatorOwner: return []
    }
  }
}

/// The fields of a Google service-account JSON file that the token exchange needs.
package struct ServiceAccount: Sendable, Equatable {
  package var projectId: String
  package var clientEmail: String
  package var privateKeyId: String
  /// PEM (`-----BEGIN PRIVATE KEY-----`): secret.
  package var privateKeyPEM: String
  /// Where the assertion is POSTed (`https://oauth2.googleapis.com/token`).
  package var tokenURI: String
  /// The file it came from (for messages).
  package var path: String

  package init(
    projectId: String, clientEmail: String, privateKeyId: String, privateKeyPEM: String, tokenURI: String, path: String
  ) {
    self.projectId = projectId
    self.clientEmail = clientEmail
    self.privateKeyId = privateKeyId
    self.privateKeyPEM = privateKeyPEM
    self.tokenURI = tokenURI
    self.path = path
  }
}
