/// Google credentials other than a service-account key, for organisations that forbid keys:
/// Application Default Credentials of a user (`gcloud auth application-default login` writes
/// them) and files that impersonate a service account. Like `ServiceAccount`, the secret fields
/// are handed to the redactor and never printed.
public struct AuthorizedUser: Sendable, Equatable {
  public var clientId: String
  /// Secret.
  public var clientSecret: String
  /// Secret: a long-lived refresh token.
  public var refreshToken: String
  /// The project billed for API calls (`X-Goog-User-Project`): Identity Toolkit refuses user
  /// credentials without one.
  public var quotaProjectId: String?
  /// Where the refresh-token grant is POSTed (`https://oauth2.googleapis.com/token`).
  public var tokenURI: String
  public var path: String

  public init(
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
public struct ImpersonatedServiceAccount: Sendable, Equatable {
  public enum Source: Sendable, Equatable {
    case authorizedUser(AuthorizedUser)
    case serviceAccount(ServiceAccount)
  }

  public var source: Source
  /// `https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/EMAIL:generateAccessToken`.
  public var impersonationURL: String
  /// The service account's e-mail, from the URL.
  public var targetPrincipal: String
  public var delegates: [String]
  public var quotaProjectId: String?
  public var path: String

  public init(
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
  public static func principal(fromURL url: String) -> String? {
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
