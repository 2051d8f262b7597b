/// Google credentials other than a service-account key, for organisations that forbid keys:
/// Application Default Credentials of a user (`gcloud auth application-default login` writes
/// them) and files that impersonate a service account. Like `ServiceAccount`, the secret fields
/// are handed to the redactor and never printed.
package struct AuthorizedUser: Sendable, Equatable {
  package var clientId: String
  /// Secret.
  package var clientSecret: String
  /// Secret: a long-lived refresh token.
  package var refreshToken: String
  /// The project billed for API calls (`X-Goog-User-Project`): Identity Toolkit refuses user
  /// credentials without one.
  package var quotaProjectId: String?
  /// Where the refresh-token grant is POSTed (`https://oauth2.googleapis.com/token`).
  package var tokenURI: String
  package var path: String

  package init(
    clientId: String, clientSecret: String, refreshToken: String, quotaProjectId: String? = nil,
    tokenURI: String = ServiceAccountFile.defaultTokenURI, path: String
  ) {
    self.clientId = clientId
    self.clientSecret = clientSecret
    self.refreshToken = refreshToken
    self.quotaProjectId = quotaProjectId
    self.tokenURI = tokenURI
    self.path = path
  }
}

/// `type: impersonated_service_account`: the source credential's access token buys a short-lived
/// token of the target service account from IAM Credentials (`…:generateAccessToken`).
package struct ImpersonatedServiceAccount: Sendable, Equatable {
  package enum Source: Sendable, Equatable {
    case authorizedUser(AuthorizedUser)
    case serviceAccount(ServiceAccount)
  }

  package var source: Source
  /// `https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/EMAIL:generateAccessToken`.
  package var impersonationURL: String
  /// The service account's e-mail, from the URL.
  package var targetPrincipal: String
  package var delegates: [String]
  package var quotaProjectId: String?
  package var path: String

  package init(
    source: Source, impersonationURL: String, targetPrincipal: String, delegates: [String] = [],
    quotaProjectId: String? = nil,
    path: String
  ) {
    self.source = source
    self.impersonationURL = impersonationURL
    self.targetPrincipal = targetPrincipal
    self.delegates = delegates
    self.quotaProjectId = quotaProjectId
    self.path = path
  }

  /// The principal named in `…/serviceAccounts/EMAIL:generateAccessToken`, as google-auth reads it.
  package static func principal(fromURL url: String) -> String? {
    guard let slash = url.lastIndex(of: "/"), let end = url.firstRange(of: ":generateAccessToken"),
      slash < end.lowerBound
    else {
      return nil
    }
    let principal = String(url[url.index(after: slash)..<end.lowerBound])
    return principal.isEmpty ? nil : principal
  }
}

extension AuthorizedUser {
  var secrets: [String] { [clientSecret, refreshToken] }
}

extension ImpersonatedServiceAccount {
  var secrets: [String] {
    switch source {
    case .authorizedUser(let user): return user.secrets
    case .serviceAccount(let account): return [account.privateKeyPEM, account.privateKeyId]
    }
  }
}
