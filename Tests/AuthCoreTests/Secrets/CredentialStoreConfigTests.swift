import AuthCore
import Foundation
import Testing

/// `credential_store` (profile), `AUTHSH_CREDENTIAL_STORE`, `--credential-store`; and admin keys
/// named by `service_key_keyring` / `credentials_keyring`.
@Suite struct CredentialStoreConfigTests {
  let paths = Paths(environment: ["HOME": "/home/ada"])

  static let toml = """
    default_profile = "laptop"

    [profiles.laptop]
    provider = "supabase"
    url = "https://abcd.supabase.co"
    key = "anon"

    [profiles.ci]
    provider = "supabase"
    url = "https://abcd.supabase.co"
    key = "anon"
    credential_store = "file"
    service_key_keyring = "ci-admin"

    [profiles.fb]
    provider = "firebase"
    key = "fb-key"
    project_id = "demo-authsh"
    credentials_keyring = "fb-admin"
    """

  func target(
    _ env: [String: String] = [:], profile: String? = nil, flag: CredentialStoreMode? = nil, toml: String = Self.toml
  ) throws
    -> Target
  {
    var flags = ConnectionFlags()
    flags.profile = profile
    flags.credentialStore = flag
    return try ConfigResolver(environment: env, paths: paths, configFile: .init(text: toml, mode: 0o600)).resolve(flags)
  }

  @Test func autoByDefault() throws {
    #expect(try target().credentialStore == CredentialStoreChoice(.auto))
  }

  @Test func flagBeatsEnvironmentBeatsProfile() throws {
    #expect(try target(profile: "ci").credentialStore.mode == .file)
    #expect(
      try target(["AUTHSH_CREDENTIAL_STORE": "keyring"]).credentialStore
        == CredentialStoreChoice(.keyring, source: "AUTHSH_CREDENTIAL_STORE"))
    #expect(
      try target(["AUTHSH_CREDENTIAL_STORE": "keyring"], flag: .file).credentialStore
        == CredentialStoreChoice(.file, source: "--credential-store"))
    // A profile chosen explicitly that sets it wins over the variable, and says so.
    let ci = try target(["AUTHSH_CREDENTIAL_STORE": "keyring"], profile: "ci")
    #expect(ci.credentialStore.mode == .file)
    #expect(ci.credentialStore.source == "credential_store in [profiles.ci] of /home/ada/.config/authsh/config.toml")
    #expect(ci.environmentNotes.contains { $0.contains("AUTHSH_CREDENTIAL_STORE is set but not used") })
    // One that does not set it leaves the variable in effect, without a note.
    let laptop = try target(["AUTHSH_CREDENTIAL_STORE": "file"], profile: "laptop")
    #expect(laptop.credentialStore.mode == .file)
    #expect(laptop.environmentNotes.isEmpty)
  }

  @Test func aBadValueIsAConfigErrorWithDidYouMean() throws {
    let error = try #require(throws: AuthError.self) { try target(["AUTHSH_CREDENTIAL_STORE": "keyrnig"]) }
    #expect(error.code == .configError)
    #expect(error.message == "AUTHSH_CREDENTIAL_STORE must be auto, keyring or file, not 'keyrnig'.")
    #expect(error.hint == "Did you mean 'keyring'?")
    let file = try #require(throws: AuthError.self) {
      try target(
        toml:
          "[profiles.x]\nprovider = \"supabase\"\nurl = \"https://a.supabase.co\"\nkey = \"k\"\ncredential_store = \"vault\"\n"
      )
    }
    #expect(file.message.contains("credential_store"))
    #expect(file.message.contains(":5"))
  }

  @Test func theServiceKeyComesFromTheKeyring() throws {
    let keyring = InMemorySecretStore()
    let key = "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz"
    try keyring.write(key, to: .serviceKey("ci-admin"))
    let ci = try target(profile: "ci")
    #expect(try AdminCredential.resolve(for: ci, environment: [:], keyring: keyring) == .supabaseSecretKey(key))

    let missing = try #require(throws: AuthError.self) {
      try AdminCredential.resolve(for: ci, environment: [:], keyring: InMemorySecretStore())
    }
    #expect(missing.message.contains("service_key_keyring = \"ci-admin\""))
    #expect(missing.hint == "Store it: authsh secret set ci-admin")
    let locked = try #require(throws: AuthError.self) {
      try AdminCredential.resolve(
        for: ci, environment: [:], keyring: InMemorySecretStore(unavailable: "no D-Bus session bus"))
    }
    #expect(locked.message.contains("no D-Bus session bus"))
    #expect(!locked.message.contains(key) && !missing.message.contains(key))
  }

  @Test func theServiceAccountComesFromTheKeyring() throws {
    let keyring = InMemorySecretStore()
    let account = """
      {"type": "service_account", "project_id": "demo-authsh", "private_key_id": "kid1",
       "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIB\\n-----END PRIVATE KEY-----\\n",
       "client_email": "admin@demo-authsh.iam.gserviceaccount.com"}
      """
    try keyring.write(account, to: .serviceKey("fb-admin"))
    guard
      case .firebaseServiceAccount(let parsed) = try AdminCredential.resolve(
        for: target(profile: "fb"), environment: [:], keyring: keyring)
    else {
      Issue.record("not a service account")
      return
    }
    #expect(parsed.clientEmail == "admin@demo-authsh.iam.gserviceaccount.com")
    try keyring.write("{\"type\": \"authorized_user\"}", to: .serviceKey("fb-admin"))
    let wrong = try #require(throws: AuthError.self) {
      try AdminCredential.resolve(for: target(profile: "fb"), environment: [:], keyring: keyring)
    }
    #expect(
      wrong.message
        == "The service account in the keyring secret 'fb-admin' holds user credentials (gcloud auth application-default login)."
    )
  }
}
