/// Connection settings given on the command line (the highest precedence).
package struct ConnectionFlags: Sendable, Equatable {
  package var profile: String?
  package var provider: ProviderKind?
  package var url: String?
  package var key: String?
  package var timeout: Double?
  package var allowInsecureHTTP = false
  /// `--tenant ID`: a Firebase (Identity Platform) tenant.
  package var tenant: String?
  /// `--credential-store`: where sessions are kept.
  package var credentialStore: CredentialStoreMode?
  package init() {}
}

/// A profile's admin-credential keys (values as written in config.toml; `serviceKey` is a secret).
package struct AdminSettings: Sendable, Equatable {
  package var serviceKeyEnv: String?
  package var serviceKey: String?
  /// `service_key_keyring`: the name of a secret stored with `authsh secret set NAME`.
  package var serviceKeyKeyring: String?
  /// `~` already expanded.
  package var credentialsFile: String?
  /// `credentials_keyring`: the name of a secret (a service-account JSON) stored with `authsh secret set NAME`.
  package var credentialsKeyring: String?
  /// The profile was chosen explicitly (`--profile`, `use`): its settings beat the generic
  /// environment variables (`SUPABASE_SERVICE_ROLE_KEY`, `GOOGLE_APPLICATION_CREDENTIALS`, …),
  /// which are then not read at all, as for `key` / `key_env`.
  package var profileChosen: Bool
  /// Where the profile is written (`[profiles.NAME] of PATH`), for messages; nil without a profile.
  package var profileSource: String?
  package init(
    serviceKeyEnv: String? = nil, serviceKey: String? = nil, credentialsFile: String? = nil,
    profileChosen: Bool = false,
    profileSource: String? = nil, serviceKeyKeyring: String? = nil, credentialsKeyring: String? = nil
  ) {
    self.serviceKeyEnv = serviceKeyEnv
    self.serviceKey = serviceKey
    self.serviceKeyKeyring = serviceKeyKeyring
    self.credentialsFile = credentialsFile
    self.credentialsKeyring = credentialsKeyring
    self.profileChosen = profileChosen
    self.profileSource = profileSource
  }
}

/// Where commands go, after flags > environment > config profile > defaults.
package struct Target: Sendable, Equatable {
  package var provider: ProviderKind
  package var profile: String
  /// Supabase: the Auth API base (`https://x.supabase.co/auth/v1`). Firebase: the Identity Toolkit
  /// base (`https://identitytoolkit.googleapis.com/v1` or the emulator's).
  package var url: String
  package var key: String
  package var projectId: String?
  /// `host:port` of a Firebase Auth emulator (official or ours), as `FIREBASE_AUTH_EMULATOR_HOST`.
  package var firebaseEmulatorHost: String?
  /// Firebase: the Identity Platform tenant whose user store every call goes to (`--tenant`, the
  /// profile's `tenant`); nil for the project's own users.
  package var tenantId: String?
  /// Seconds, in (0, `maximumTimeout`].
  package var timeout: Double
  package var allowInsecureHTTP: Bool
  /// Admin credentials named by the profile (`service_key_env`, `service_key`, `credentials_file`);
  /// resolved into an `AdminCredential` only by admin commands.
  package var admin = AdminSettings()
  /// `readonly = true`: mutating admin commands are refused before anything is sent.
  package var readonly = false
  /// `flow = "pkce"` (Supabase): `reset` and `login --link` send a PKCE challenge, so their links
  /// come back with `?code=`, which authsh trades with the verifier it kept.
  package var pkce = false
  /// `credential_store`, `--credential-store`, `AUTHSH_CREDENTIAL_STORE`: where sessions are kept.
  package var credentialStore = CredentialStoreChoice()
  /// Where the environment overrode the profile, or was ignored because the profile was chosen
  /// explicitly (names only, never values), for `status` and `--verbose`.
  package var environmentNotes: [String] = []

  /// The longest request timeout (24h); longer values are refused where they are read.
  package static let maximumTimeout: Double = 86_400

  package init(
    provider: ProviderKind, profile: String, url: String, key: String, projectId: String? = nil,
    firebaseEmulatorHost: String? = nil, timeout: Double = 30, allowInsecureHTTP: Bool = false
  ) {
    self.provider = provider
    self.profile = profile
    self.url = url
    self.key = key
    self.projectId = projectId
    self.firebaseEmulatorHost = firebaseEmulatorHost
    self.timeout = timeout
    self.allowInsecureHTTP = allowInsecureHTTP
  }

  /// The Supabase Auth base for a project URL: appends `/auth/v1` unless it is already there.
  package static func supabaseAuthBase(_ url: String) -> String {
    var base = url
    while base.hasSuffix("/") { base.removeLast() }
    return base.hasSuffix("/auth/v1") ? base : base + "/auth/v1"
  }

  /// `host:port` from `http://host:port[/…]` or a bare `host:port`.
  package static func hostAndPort(_ url: String) -> String {
    var rest = Substring(url)
    if let range = rest.firstRange(of: "://") { rest = rest[range.upperBound...] }
    return String(rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? rest)
  }
}
