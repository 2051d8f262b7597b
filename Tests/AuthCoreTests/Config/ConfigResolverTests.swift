import AuthCore
import Testing

@Suite struct ConfigResolverTests {
  let paths = Paths(environment: ["HOME": "/home/ada"])

  func resolver(_ env: [String: String], toml: String? = nil, mode: UInt32 = 0o600) -> ConfigResolver {
    ConfigResolver(environment: env, paths: paths, configFile: toml.map { .init(text: $0, mode: mode) })
  }

  static let toml = """
    default_profile = "staging"   # the default

    [profiles.staging]
    provider = "supabase"
    url = "https://abcd.supabase.co"
    key_env = "STAGING_ANON_KEY"

    [profiles.mobile]
    provider = "firebase"
    key = 'literal-key'
    project_id = "my-app"
    emulator_host = "127.0.0.1:9099"
    timeout = 5
    """

  @Test func profileFromFile() throws {
    let target = try resolver(["STAGING_ANON_KEY": "anon"], toml: Self.toml).resolve(ConnectionFlags())
    #expect(
      target == Target(provider: .supabase, profile: "staging", url: "https://abcd.supabase.co/auth/v1", key: "anon"))
  }

  @Test func environmentBeatsProfileAndFlagsBeatEnvironment() throws {
    let env = ["STAGING_ANON_KEY": "anon", "SUPABASE_URL": "https://env.supabase.co"]
    #expect(try resolver(env, toml: Self.toml).resolve(ConnectionFlags()).url == "https://env.supabase.co/auth/v1")
    var flags = ConnectionFlags()
    flags.url = "https://flag.supabase.co/"
    flags.key = "flag-key"
    let target = try resolver(env, toml: Self.toml).resolve(flags)
    #expect(target.url == "https://flag.supabase.co/auth/v1")
    #expect(target.key == "flag-key")
  }

  @Test func firebaseProfileWithEmulator() throws {
    var flags = ConnectionFlags()
    flags.profile = "mobile"
    let target = try resolver([:], toml: Self.toml).resolve(flags)
    #expect(target.provider == .firebase)
    #expect(target.url == "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1")
    #expect(target.firebaseEmulatorHost == "127.0.0.1:9099")
    #expect(target.projectId == "my-app")
    #expect(target.timeout == 5)
  }

  @Test("a tenant: the profile's tenant key, --tenant over it, a session key of its own; Supabase refuses one")
  func tenant() throws {
    let toml = Self.toml + "\ntenant = \"shop-eu-x7k2p\"\n"
    var flags = ConnectionFlags()
    flags.profile = "mobile"
    let fromProfile = try resolver([:], toml: toml).resolve(flags)
    #expect(fromProfile.tenantId == "shop-eu-x7k2p")
    flags.tenant = "shop-us-a1b2c"
    let fromFlag = try resolver([:], toml: toml).resolve(flags)
    #expect(fromFlag.tenantId == "shop-us-a1b2c")
    #expect(BackendKey(fromFlag).canonical.hasSuffix("project=my-app tenant=shop-us-a1b2c"))
    var plain = fromFlag
    plain.tenantId = nil
    #expect(BackendKey(plain).canonical.hasSuffix("project=my-app"), "no tenant: the key is as before")
    var supabase = ConnectionFlags()
    supabase.tenant = "t1"
    let refused = #expect(throws: AuthError.self) {
      try resolver(["STAGING_ANON_KEY": "anon"], toml: Self.toml).resolve(supabase)
    }
    #expect(refused?.code == .configError && refused?.message.contains("Firebase") == true)
  }

  @Test func firebaseURLWithAnUnsupportedSchemeSaysSo() throws {
    var flags = ConnectionFlags()
    flags.provider = .firebase
    flags.url = "ftp://127.0.0.1:9099"
    #expect(
      throws: AuthError(
        .configError, message: "The Firebase emulator URL 'ftp://127.0.0.1:9099' uses the unsupported scheme 'ftp'.",
        hint: "authsh speaks http:// (local emulators) and https:// (hosted projects).")
    ) {
      try resolver(["FIREBASE_API_KEY": "k"]).resolve(flags)
    }
    flags.url = "127.0.0.1:9099"
    #expect(
      try resolver(["FIREBASE_API_KEY": "k"]).resolve(flags).firebaseEmulatorHost == "127.0.0.1:9099",
      "host:port is what the emulator variable holds")
  }

  @Test func keyInALooseFileIsRefused() throws {
    var flags = ConnectionFlags()
    flags.profile = "mobile"
    let error = try #require(throws: AuthError.self) { try resolver([:], toml: Self.toml, mode: 0o644).resolve(flags) }
    #expect(error.code == .configError)
    #expect(error.hint?.contains("chmod 600") == true)
  }

  /// Issue 20 item 3: whoever can write the file (or its directory) chooses where keys go.
  @Test(arguments: [
    (0o666 as UInt32, 0o700 as UInt32, "/home/ada/.config/authsh/config.toml"),
    (0o620, 0o700, "/home/ada/.config/authsh/config.toml"), (0o600, 0o777, "/home/ada/.config/authsh"),
  ])
  func aConfigOthersCanWriteIsRefused(_ mode: UInt32, _ directoryMode: UInt32, _ fixed: String) throws {
    var file = ConfigResolver.ConfigFileContents(text: Self.toml, mode: mode)
    file.directoryMode = directoryMode
    let resolver = ConfigResolver(environment: [:], paths: paths, configFile: file)
    let error = try #require(throws: AuthError.self) { try resolver.resolve(ConnectionFlags()) }
    #expect(error.code == .configError)
    #expect(
      error.message.hasPrefix("Refusing to use /home/ada/.config/authsh/config.toml: group or others can write to"))
    #expect(error.hint == "Run: chmod go-w \(fixed)")
    var tight = ConfigResolver.ConfigFileContents(text: Self.toml, mode: 0o644)
    tight.directoryMode = 0o755
    #expect(throws: Never.self) { try ConfigResolver(environment: [:], paths: paths, configFile: tight).document() }
  }

  @Test func unknownProfileListsTheKnownOnes() throws {
    var flags = ConnectionFlags()
    flags.profile = "prod"
    let error = try #require(throws: AuthError.self) { try resolver([:], toml: Self.toml).resolve(flags) }
    #expect(error.message == "Profile 'prod' is not defined in /home/ada/.config/authsh/config.toml.")
    #expect(error.hint == "Defined profiles: mobile, staging.")
  }

  @Test func missingPiecesSayWhatToSet() throws {
    let noKey = try #require(throws: AuthError.self) {
      try resolver(["SUPABASE_URL": "https://x.supabase.co"]).resolve(ConnectionFlags())
    }
    #expect(noKey.message == "No Supabase anon key is set.")
    #expect(noKey.hint?.hasPrefix("Set SUPABASE_ANON_KEY") == true)
    let nothing = try #require(throws: AuthError.self) { try resolver([:]).resolve(ConnectionFlags()) }
    #expect(nothing.message == "No backend is configured.")
    #expect(nothing.hint?.contains("pass --url and --key") == true)
  }

  /// `--url` and `--key` stand for SUPABASE_URL and SUPABASE_ANON_KEY, with nothing else set.
  @Test func urlAndKeyFlagsAloneAreSupabase() throws {
    var flags = ConnectionFlags()
    flags.url = "https://abcd.supabase.co"
    flags.key = "anon-key"
    let target = try resolver([:]).resolve(flags)
    #expect(
      target.provider == .supabase && target.key == "anon-key" && target.url.hasPrefix("https://abcd.supabase.co"))
    // An emulator's address for Firebase, when Firebase is what the environment sets.
    flags.url = "127.0.0.1:9099"
    #expect(try resolver(["FIREBASE_API_KEY": "k"]).resolve(flags).provider == .firebase)
  }

  @Test func badTOMLPointsAtTheLine() throws {
    let error = try #require(throws: AuthError.self) {
      try resolver([:], toml: "[profiles.x]\nurl = https://no-quotes").resolve(ConnectionFlags())
    }
    #expect(error.message.hasPrefix("/home/ada/.config/authsh/config.toml:2:"))
  }

  @Test func xdgAndOverrides() {
    let paths = Paths(environment: ["HOME": "/h", "XDG_STATE_HOME": "/s", "AUTHSH_CONFIG_DIR": "/c"])
    #expect(paths.configFile == "/c/config.toml")
    #expect(paths.sessionsDirectory == "/s/authsh/sessions")
    #expect(Paths(environment: ["HOME": "/h"]).historyFile == "/h/.local/state/authsh/history")
  }
}

/// Issue 11 item 5: an explicitly chosen profile beats ambient `SUPABASE_URL` & co.; when the
/// environment does override the profile, the target says so (names only, never values).
@Suite struct ConfigPrecedenceTests {
  let paths = Paths(environment: ["HOME": "/home/ada"])
  static let emulatorEnvironment = [
    "STAGING_ANON_KEY": "staging-anon", "SUPABASE_URL": "http://127.0.0.1:54321", "SUPABASE_ANON_KEY": "anon-key",
    "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:54321", "FIREBASE_API_KEY": "fake-api-key",
    "FIREBASE_PROJECT_ID": "demo-authsh",
  ]

  func resolve(_ env: [String: String], profile: String? = nil) throws -> Target {
    var flags = ConnectionFlags()
    flags.profile = profile
    return try ConfigResolver(
      environment: env, paths: paths, configFile: .init(text: ConfigResolverTests.toml, mode: 0o600)
    )
    .resolve(flags)
  }

  @Test func explicitProfileBeatsTheEnvironment() throws {
    let staging = try resolve(Self.emulatorEnvironment, profile: "staging")
    #expect(staging.url == "https://abcd.supabase.co/auth/v1")
    #expect(staging.key == "staging-anon")
    #expect(
      staging.environmentNotes == [
        "environment: SUPABASE_URL is set but not used: profile 'staging' was chosen explicitly.",
        "environment: SUPABASE_ANON_KEY is set but not used: profile 'staging' was chosen explicitly.",
      ])
    let mobile = try resolve(Self.emulatorEnvironment, profile: "mobile")
    #expect(mobile.firebaseEmulatorHost == "127.0.0.1:9099")
    #expect(mobile.key == "literal-key")
    #expect(mobile.projectId == "my-app")
  }

  @Test func environmentOverridingAnImplicitProfileIsNoted() throws {
    let target = try resolve(Self.emulatorEnvironment)
    #expect(target.profile == "staging")
    #expect(target.url == "http://127.0.0.1:54321/auth/v1")
    #expect(target.key == "anon-key")
    #expect(
      target.environmentNotes == [
        "environment: SUPABASE_URL overrides url of profile 'staging' (--profile staging or `use staging` would use the profile's).",
        "environment: SUPABASE_ANON_KEY overrides key of profile 'staging' (--profile staging or `use staging` would use the profile's).",
      ])
    #expect(!target.environmentNotes.joined().contains("anon-key"), "notes name variables, never values")
  }

  @Test func nothingToSayWithoutAConflict() throws {
    #expect(try resolve(["STAGING_ANON_KEY": "staging-anon"]).environmentNotes.isEmpty)
    #expect(try resolve(["STAGING_ANON_KEY": "staging-anon"], profile: "staging").environmentNotes.isEmpty)
  }
}

extension ConfigResolverTests {
  /// A resolver keeps the target it resolved last (a script resolves one per line): a setting
  /// changed under it must not be answered from that.
  @Test func aChangedSettingIsResolvedAfresh() throws {
    var resolver = resolver(["STAGING_ANON_KEY": "anon"], toml: Self.toml)
    #expect(try resolver.resolve(ConnectionFlags()).url == "https://abcd.supabase.co/auth/v1")
    #expect(try resolver.resolve(ConnectionFlags()).url == "https://abcd.supabase.co/auth/v1")
    resolver.environment["SUPABASE_URL"] = "https://env.supabase.co"
    #expect(try resolver.resolve(ConnectionFlags()).url == "https://env.supabase.co/auth/v1")
    resolver.configFile = nil
    var flags = ConnectionFlags()
    flags.provider = .supabase
    flags.key = "k"
    #expect(try resolver.resolve(flags).url == "https://env.supabase.co/auth/v1")
    resolver.environment["SUPABASE_URL"] = nil
    #expect(throws: AuthError.self) { try resolver.resolve(flags) }
  }
}
