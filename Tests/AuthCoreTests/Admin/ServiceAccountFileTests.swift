import AuthCore
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The service-account file: parsed, permission-checked, and chosen from the environment or profile.
@Suite struct ServiceAccountFileTests {
  static let pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n"
  static let json = """
    {"type": "service_account", "project_id": "demo-prod", "private_key_id": "0123abcd",
     "private_key": "\(pem.replacingOccurrences(of: "\n", with: "\\n"))",
     "client_email": "authsh@demo-prod.iam.gserviceaccount.com", "client_id": "1",
     "token_uri": "https://oauth2.googleapis.com/token"}
    """

  let directory: String = {
    let path = NSTemporaryDirectory() + "authsh-sa-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }()

  func write(_ text: String, mode: mode_t = 0o600, name: String = "sa.json") -> String {
    let path = directory + "/" + name
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    chmod(path, mode)
    return path
  }

  func firebase(_ env: [String: String], credentialsFile: String? = nil, chosen: Bool = false, emulator: String? = nil)
    -> Target
  {
    var target = Target(
      provider: .firebase, profile: "p",
      url: emulator.map { "http://\($0)/identitytoolkit.googleapis.com/v1" }
        ?? "https://identitytoolkit.googleapis.com/v1",
      key: "k", firebaseEmulatorHost: emulator)
    target.admin = AdminSettings(
      credentialsFile: credentialsFile, profileChosen: chosen, profileSource: "[profiles.p] of config.toml")
    return target
  }

  @Test func parsesTheFieldsTheExchangeNeeds() throws {
    let path = write(Self.json)
    let credential = try AdminCredential.resolve(
      for: firebase(["GOOGLE_APPLICATION_CREDENTIALS": path]), environment: ["GOOGLE_APPLICATION_CREDENTIALS": path])
    #expect(
      credential
        == .firebaseServiceAccount(
          ServiceAccount(
            projectId: "demo-prod", clientEmail: "authsh@demo-prod.iam.gserviceaccount.com", privateKeyId: "0123abcd",
            privateKeyPEM: Self.pem, tokenURI: "https://oauth2.googleapis.com/token", path: path)))
  }

  @Test func groupOrWorldReadableFileIsRefused() throws {
    let path = write(Self.json, mode: 0o644)
    let error = try #require(throws: AuthError.self) {
      try AdminCredential.resolve(for: firebase([:], credentialsFile: path), environment: [:])
    }
    #expect(error.code == .configError && error.status == nil)
    #expect(error.message.contains(path) && error.message.contains("0644"))
    #expect(error.hint == "It holds a private key. Run: chmod 600 \(path)")
  }

  @Test func missingFileNamesTheFileAndWhereItCameFrom() throws {
    let path = directory + "/absent.json"
    let error = try #require(throws: AuthError.self) {
      try AdminCredential.resolve(for: firebase([:]), environment: ["GOOGLE_APPLICATION_CREDENTIALS": path])
    }
    #expect(error.message.contains(path) && error.message.contains("GOOGLE_APPLICATION_CREDENTIALS"))
    #expect(error.message.contains("No such file"))
  }

  @Test(arguments: [
    ("{not json", "is not JSON"),
    (#"{"type":"authorized_user","client_id":"x","refresh_token":"y"}"#, "have no client_secret"),
    (#"{"type":"external_account","audience":"x"}"#, "type is 'external_account'"),
    (
      #"{"type":"impersonated_service_account","service_account_impersonation_url":"https://iam.example/x"}"#,
      "does not name a service account"
    ),
    (#"{"type":"service_account","client_email":"a@b","private_key_id":"1"}"#, "has no private_key"),
    (
      #"{"type":"service_account","client_email":"a@b","private_key_id":"1","private_key":"hello"}"#,
      "is not a PEM private key"
    ),
  ])
  func invalidFiles(text: String, says: String) throws {
    let path = write(text)
    let error = try #require(throws: AuthError.self) {
      try AdminCredential.resolve(for: firebase([:], credentialsFile: path), environment: [:])
    }
    #expect(error.code == .configError)
    #expect(error.message.contains(says))
    #expect(!error.message.contains("refresh_token"))
  }

  @Test func emulatorWithoutServiceAccountUsesOwner() throws {
    #expect(
      try AdminCredential.resolve(for: firebase([:], emulator: "127.0.0.1:9099"), environment: [:])
        == .firebaseEmulatorOwner)
  }

  @Test func emulatorWithServiceAccountStillUsesTheServiceAccount() throws {
    let path = write(Self.json)
    let credential = try AdminCredential.resolve(
      for: firebase([:], emulator: "127.0.0.1:9099"), environment: ["GOOGLE_APPLICATION_CREDENTIALS": path])
    guard case .firebaseServiceAccount(let account) = credential else {
      Issue.record("got \(credential)")
      return
    }
    #expect(account.clientEmail == "authsh@demo-prod.iam.gserviceaccount.com")
  }

  @Test func productionWithoutServiceAccountIsRefused() throws {
    let error = try #require(throws: AuthError.self) {
      try AdminCredential.resolve(for: firebase([:]), environment: [:])
    }
    #expect(error.code == .configError)
    #expect(
      error.hint?.contains("GOOGLE_APPLICATION_CREDENTIALS") == true && error.hint?.contains("credentials_file") == true
    )
  }

  @Test func explicitProfileUsesItsCredentialsFile() throws {
    let mine = write(Self.json, name: "mine.json")
    let other = write(Self.json.replacingOccurrences(of: "demo-prod", with: "other"), name: "other.json")
    let env = ["GOOGLE_APPLICATION_CREDENTIALS": other]
    guard
      case .firebaseServiceAccount(let chosen) = try AdminCredential.resolve(
        for: firebase(env, credentialsFile: mine, chosen: true), environment: env),
      case .firebaseServiceAccount(let fromEnv) = try AdminCredential.resolve(
        for: firebase(env, credentialsFile: mine), environment: env)
    else {
      Issue.record("no service account")
      return
    }
    #expect(chosen.path == mine && fromEnv.path == other)
  }

  static let user = """
    {"type": "authorized_user", "client_id": "764086051850-6qr4p6gpi6hn506pt8ejuq83di341hur.apps.googleusercontent.com",
     "client_secret": "d-FL95Q19q7MQmFpd7hHD0Ty", "refresh_token": "1//0gUser-refresh-token-secret",
     "quota_project_id": "demo-prod", "universe_domain": "googleapis.com"}
    """

  @Test("gcloud auth application-default login: an authorized_user file is a credential, with its quota project")
  func authorizedUser() throws {
    let path = write(Self.user, name: "adc.json")
    let credential = try AdminCredential.resolve(
      for: firebase([:]), environment: ["GOOGLE_APPLICATION_CREDENTIALS": path])
    #expect(
      credential
        == .firebaseAuthorizedUser(
          AuthorizedUser(
            clientId: "764086051850-6qr4p6gpi6hn506pt8ejuq83di341hur.apps.googleusercontent.com",
            clientSecret: "d-FL95Q19q7MQmFpd7hHD0Ty",
            refreshToken: "1//0gUser-refresh-token-secret", quotaProjectId: "demo-prod",
            tokenURI: "https://oauth2.googleapis.com/token",
            path: path)))
    #expect(credential.secrets == ["d-FL95Q19q7MQmFpd7hHD0Ty", "1//0gUser-refresh-token-secret"])
    // It holds a refresh token: the same permission rule as a key.
    let loose = write(Self.user, mode: 0o644, name: "loose.json")
    #expect(throws: AuthError.self) {
      try AdminCredential.resolve(for: firebase([:], credentialsFile: loose), environment: [:])
    }
  }

  @Test("an impersonated_service_account file: the target from the URL, the source user or key, the delegates")
  func impersonated() throws {
    let text = """
      {"type": "impersonated_service_account", "delegates": ["projects/-/serviceAccounts/hop@demo-prod.iam.gserviceaccount.com"],
       "service_account_impersonation_url": "https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/authsh@demo-prod.iam.gserviceaccount.com:generateAccessToken",
       "source_credentials": \(Self.user)}
      """
    let path = write(text, name: "impersonate.json")
    guard
      case .firebaseImpersonated(let impersonated) = try AdminCredential.resolve(
        for: firebase([:], credentialsFile: path), environment: [:])
    else {
      Issue.record("not an impersonation")
      return
    }
    #expect(impersonated.targetPrincipal == "authsh@demo-prod.iam.gserviceaccount.com")
    #expect(impersonated.delegates == ["projects/-/serviceAccounts/hop@demo-prod.iam.gserviceaccount.com"])
    guard case .authorizedUser(let source) = impersonated.source else {
      Issue.record("source")
      return
    }
    #expect(source.refreshToken == "1//0gUser-refresh-token-secret")
    #expect(AdminCredential.firebaseImpersonated(impersonated).secrets.contains("1//0gUser-refresh-token-secret"))
    let keySource = text.replacingOccurrences(of: Self.user, with: Self.json)
    guard
      case .firebaseImpersonated(let byKey) = try AdminCredential.resolve(
        for: firebase([:], credentialsFile: write(keySource, name: "by-key.json")), environment: [:]),
      case .serviceAccount(let account) = byKey.source
    else {
      Issue.record("key source")
      return
    }
    #expect(account.clientEmail == "authsh@demo-prod.iam.gserviceaccount.com")
  }
}
