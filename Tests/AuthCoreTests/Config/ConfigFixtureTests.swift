import AuthCore
import Foundation
import Testing

/// `config.toml` is real TOML 1.0 (CRLF, BOM, inline tables, dotted keys, multi-line values), and
/// every mistake is an error naming file, line and key, with a did-you-mean where one applies.
/// Fixtures: Tests/AuthCoreTests/Config/Fixtures.
@Suite struct ConfigFixtureTests {
  static let configPath = "/home/ada/.config/authsh/config.toml"

  static func fixture(_ name: String) throws -> String {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/" + name)
    return String(decoding: try Data(contentsOf: url), as: UTF8.self)
  }

  func resolver(_ fixture: String, env: [String: String] = [:]) throws -> ConfigResolver {
    ConfigResolver(
      environment: env, paths: Paths(environment: ["HOME": "/home/ada"]),
      configFile: .init(text: try Self.fixture(fixture), mode: 0o600))
  }

  func failure(_ fixture: String, env: [String: String] = [:], profile: String? = nil) throws -> AuthError {
    var flags = ConnectionFlags()
    flags.profile = profile
    let resolver = try resolver(fixture, env: env)
    return try #require(throws: AuthError.self) { try resolver.resolve(flags) }
  }

  @Test(arguments: ["valid-crlf.toml", "valid-bom.toml", "valid-inline-tables.toml"])
  func validFilesGiveTheSameProfiles(_ name: String) throws {
    let resolver = try resolver(name, env: ["STAGING_ANON_KEY": "anon"])
    #expect(resolver.profileNames() == ["mobile", "staging"])
    let staging = try resolver.resolve(ConnectionFlags())
    #expect(
      staging == Target(provider: .supabase, profile: "staging", url: "https://abcd.supabase.co/auth/v1", key: "anon"))
    var flags = ConnectionFlags()
    flags.profile = "mobile"
    let mobile = try resolver.resolve(flags)
    #expect(mobile.provider == .firebase)
    #expect(mobile.firebaseEmulatorHost == "127.0.0.1:9099")
    #expect(mobile.projectId == "my-app")
    #expect(mobile.timeout == 5)
  }

  /// The old reader split on "\n" only and silently dropped everything after the first CRLF line.
  @Test func aCRLFFileIsReadToTheEnd() throws {
    let error = try failure("crlf-typo.toml")
    #expect(error.code == .configError)
    #expect(
      error.message == "\(Self.configPath):5: unknown key 'porvider' in [profiles.staging]; did you mean 'provider'?")
  }

  @Test(arguments: [
    ("typo-key.toml", ":4: unknown key 'porvider' in [profiles.staging]; did you mean 'provider'?"),
    ("typo-inline-key.toml", ":3: unknown key 'projectid' in [profiles.mobile]; did you mean 'project_id'?"),
    ("typo-table.toml", ":3: unknown table [profile]; did you mean 'profiles'?"),
    ("typo-top-key.toml", ":1: unknown key 'default-profile'; did you mean 'default_profile'?"),
    ("unknown-profile-table.toml", ":5: unknown table [profiles.staging.headers]"),
    (
      "undefined-default-profile.toml",
      ":1: default_profile = \"stagin\" is not a profile in this file; did you mean 'staging'?"
    ),
    (
      "url-without-scheme.toml",
      ":3: url = \"abcd.supabase.co\" has no scheme; did you mean 'https://abcd.supabase.co'?"
    ),
    (
      "provider-typo.toml",
      ":2: provider = \"supabse\" must be one of \"supabase\", \"firebase\"; did you mean 'supabase'?"
    ),
    ("multiline-array.toml", ":4: unknown key 'scopes' in [profiles.staging]"),
    ("wrong-type.toml", ":4: timeout must be a number, not a string"),
  ])
  func mistakesNameFileLineAndKey(_ name: String, _ expected: String) throws {
    let error = try failure(name, env: ["STAGING_ANON_KEY": "anon"])
    #expect(error.code == .configError)
    #expect(error.message == Self.configPath + expected)
  }

  @Test func keyEnvNamingAnUnsetVariable() throws {
    let error = try failure("key-env-unset.toml", env: ["STAGING_ANON_KEY": "anon"], profile: "staging")
    #expect(error.code == .configError)
    #expect(
      error.message == Self.configPath
        + ":4: key_env = \"STAGING_ANON_KY\" in [profiles.staging] names an environment variable that is not set; did you mean 'STAGING_ANON_KEY'?"
    )
    #expect(!error.message.contains("anon\""), "the variable's value never shows")
    // No far-fetched guess from the rest of the environment (two edits make NOPE HOME).
    let resolver = ConfigResolver(
      environment: ["HOME": "/home/ada"], paths: Paths(environment: ["HOME": "/home/ada"]),
      configFile: .init(
        text: "[profiles.a]\nprovider = \"supabase\"\nurl = \"https://x.supabase.co\"\nkey_env = \"NOPE\"\n",
        mode: 0o600))
    var flags = ConnectionFlags()
    flags.profile = "a"
    let unrelated = try #require(throws: AuthError.self) { try resolver.resolve(flags) }
    #expect(unrelated.message.hasSuffix("names an environment variable that is not set"), "\(unrelated.message)")
  }

  @Test(arguments: ["86401", "1e9"])
  func aTimeoutOutOfRangeNamesItsLine(_ value: String) throws {
    let resolver = ConfigResolver(
      environment: [:], paths: Paths(environment: ["HOME": "/home/ada"]),
      configFile: .init(text: "[profiles.a]\nprovider = \"firebase\"\nkey = \"k\"\ntimeout = \(value)\n", mode: 0o600))
    var flags = ConnectionFlags()
    flags.profile = "a"
    let error = try #require(throws: AuthError.self) { try resolver.resolve(flags) }
    #expect(error.message.hasPrefix(Self.configPath + ":4: timeout = "), "\(error.message)")
    #expect(error.hint == "Use a number of seconds more than 0 and at most 86400.")
  }

  @Test func syntaxErrorsCarryTheParsersPosition() throws {
    let error = try failure("syntax-error.toml")
    #expect(error.code == .configError)
    #expect(error.message.hasPrefix(Self.configPath + ":3:"))
  }

  /// A table 10,000 dotted keys deep ran the conversion out of stack (no output, exit 139); below
  /// the line check's limit, the conversion stops at depth and the table is refused by name.
  @Test(arguments: [
    "[" + String(repeating: "a.", count: 999) + "b]\n", String(repeating: "a.", count: 999) + "b = 1\n",
  ])
  func aTableNestedThousandsDeepIsAnUnknownTable(_ text: String) throws {
    let resolver = ConfigResolver(
      environment: [:], paths: Paths(environment: ["HOME": "/home/ada"]), configFile: .init(text: text, mode: 0o600))
    let error = try #require(throws: AuthError.self) { try resolver.resolve(ConnectionFlags()) }
    #expect(error.code == .configError)
    #expect(error.message.contains("'a'") || error.message.contains("[a]"), "\(error.message)")
  }

  /// 30,000 levels ran toml++ itself out of stack: refused by line before it reads the file.
  @Test(arguments: [
    "[" + String(repeating: "a.", count: 30_000) + "b]\n",
    "x = 1\n" + String(repeating: "a.", count: 30_000) + "b = 1\n",
  ])
  func aKeyNestedTensOfThousandsDeepIsRefusedByLine(_ text: String) throws {
    let resolver = ConfigResolver(
      environment: [:], paths: Paths(environment: ["HOME": "/home/ada"]), configFile: .init(text: text, mode: 0o600))
    let error = try #require(throws: AuthError.self) { try resolver.resolve(ConnectionFlags()) }
    let line = text.hasPrefix("x") ? 2 : 1
    #expect(error.message == Self.configPath + ":\(line): a key or table nested more than 1000 levels deep")
  }

  @Test func aNULByteIsAnErrorNotTheEndOfTheFile() throws {
    let resolver = ConfigResolver(
      environment: [:], paths: Paths(environment: ["HOME": "/home/ada"]),
      configFile: .init(text: "[profiles.a]\nprovider = \"supabase\"\n\0porvider = 1\n", mode: 0o600))
    let error = try #require(throws: AuthError.self) { try resolver.resolve(ConnectionFlags()) }
    #expect(error.message == Self.configPath + ":3: contains a NUL byte")
  }

  @Test func unknownKeysAreErrorsEvenForAnotherProfile() throws {
    // `porvider` in [profiles.staging] must not let staging fall back to whatever the environment says.
    let error = try failure("typo-key.toml", env: ["FIREBASE_API_KEY": "prod-key"])
    #expect(error.message.contains("porvider"))
  }
}
