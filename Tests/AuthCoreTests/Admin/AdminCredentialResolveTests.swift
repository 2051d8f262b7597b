import AuthCore
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which admin key or service account admin commands use, from the environment and the profile.
@Suite struct AdminCredentialResolveTests {
  let paths = Paths(environment: ["HOME": "/home/ada"])

  static func jwt(role: String) -> String {
    func part(_ text: String) -> String {
      Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
        of: "/", with: "_"
      )
      .replacingOccurrences(of: "=", with: "")
    }
    return part(#"{"alg":"HS256","typ":"JWT"}"#) + "." + part(#"{"iss":"supabase","role":"\#(role)","exp":4102444800}"#)
      + ".c2ln"
  }
  static let serviceRole = jwt(role: "service_role")
  static let anon = jwt(role: "anon")
  static let secret = "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz"

  static let toml = """
    [profiles.prod]
    provider = "supabase"
    url = "https://prod.supabase.co"
    key_env = "PROD_ANON"
    service_key_env = "PROD_SERVICE_KEY"
    readonly = true

    [profiles.stage]
    provider = "supabase"
    url = "https://stage.supabase.co"
    key_env = "STAGE_ANON"
    service_key = "\(secret)"

    [profiles.bare]
    provider = "supabase"
    url = "https://bare.supabase.co"
    key = "anon"

    [profiles.fb]
    provider = "firebase"
    key = "fb-key"
    project_id = "demo"
    credentials_file = "~/keys/sa.json"
    """

  func target(_ env: [String: String], profile: String? = nil, mode: UInt32 = 0o600) throws -> Target {
    var flags = ConnectionFlags()
    flags.profile = profile
    let resolver = ConfigResolver(
      environment: env.merging(["HOME": "/home/ada", "STAGE_ANON": "anon"]) { old, _ in old }, paths: paths,
      configFile: .init(text: Self.toml, mode: mode))
    return try resolver.resolve(flags)
  }

  func credential(_ env: [String: String], profile: String? = nil) throws -> AdminCredential {
    try AdminCredential.resolve(
      for: try target(env, profile: profile), environment: env.merging(["STAGE_ANON": "anon"]) { old, _ in old })
  }

  @Test func configKeysFillTheTarget() throws {
    let prod = try target(["PROD_ANON": "a"], profile: "prod")
    #expect(prod.readonly)
    #expect(prod.admin.serviceKeyEnv == "PROD_SERVICE_KEY")
    #expect(prod.admin.profileChosen)
    let fb = try target([:], profile: "fb")
    #expect(fb.admin.credentialsFile == "/home/ada/keys/sa.json")
    #expect(!fb.readonly)
  }

  @Test func genericEnvironmentVariables() throws {
    let env = ["SUPABASE_URL": "https://x.supabase.co", "SUPABASE_ANON_KEY": "anon"]
    #expect(
      try credential(env.merging(["SUPABASE_SERVICE_ROLE_KEY": Self.serviceRole]) { $1 })
        == .supabaseServiceRole(Self.serviceRole))
    #expect(try credential(env.merging(["SUPABASE_SECRET_KEY": Self.secret]) { $1 }) == .supabaseSecretKey(Self.secret))
    // The kind comes from the value, not the variable's name.
    #expect(
      try credential(env.merging(["SUPABASE_SERVICE_ROLE_KEY": Self.secret]) { $1 }) == .supabaseSecretKey(Self.secret))
  }

  @Test func explicitProfileUsesItsOwnKeyAndIgnoresTheGenericVariable() throws {
    let env = [
      "PROD_ANON": "a", "PROD_SERVICE_KEY": Self.serviceRole, "SUPABASE_SECRET_KEY": "sb_secret_other_project_key",
    ]
    #expect(try credential(env, profile: "prod") == .supabaseServiceRole(Self.serviceRole))
    #expect(
      try credential(["SUPABASE_SECRET_KEY": "sb_secret_other_project_key"], profile: "stage")
        == .supabaseSecretKey(Self.secret))
    // Without --profile (default_profile / AUTHSH_PROFILE), the environment beats the profile, as for key.
    #expect(
      try credential(["AUTHSH_PROFILE": "stage", "SUPABASE_SECRET_KEY": "sb_secret_from_env_0001"])
        == .supabaseSecretKey("sb_secret_from_env_0001"))
  }

  @Test func explicitProfileWithoutAdminKeySaysTheVariableIsIgnored() throws {
    let error = try #require(throws: AuthError.self) {
      try credential(["SUPABASE_SERVICE_ROLE_KEY": Self.serviceRole], profile: "bare")
    }
    #expect(error.code == .configError)
    #expect(error.hint?.contains("SUPABASE_SERVICE_ROLE_KEY is set but not used") == true)
    #expect(error.hint?.contains("service_key_env") == true)
  }

  @Test func serviceKeyEnvNamingAnUnsetVariable() throws {
    let error = try #require(throws: AuthError.self) { try credential(["PROD_ANON": "a"], profile: "prod") }
    #expect(error.message.contains("service_key_env = \"PROD_SERVICE_KEY\""))
    #expect(error.message.contains("[profiles.prod] of /home/ada/.config/authsh/config.toml"))
  }

  @Test func serviceKeyNeedsAPrivateConfigFile() throws {
    let error = try #require(throws: AuthError.self) { try target([:], profile: "stage", mode: 0o644) }
    #expect(error.code == .configError && error.status == nil)
    #expect(error.message.contains("service_key") && error.message.contains("mode 0644"))
    #expect(error.hint?.contains("chmod 600") == true)
  }

  @Test(arguments: [
    (anon, "is the anon key, not an admin key"),
    ("sb_publishable_abcdefghijklmnop", "is a publishable key (sb_publishable_…), not an admin key"),
    (jwt(role: "authenticated"), "a JWT with role 'authenticated'"),
    ("not-a-key-at-all", "neither a service_role key"),
  ])
  func wrongKindOfKey(key: String, says: String) throws {
    let env = ["SUPABASE_URL": "https://x.supabase.co", "SUPABASE_ANON_KEY": "anon", "SUPABASE_SERVICE_ROLE_KEY": key]
    let error = try #require(throws: AuthError.self) { try credential(env) }
    #expect(error.code == .configError)
    #expect(error.message.contains(says))
    #expect(error.message.contains("SUPABASE_SERVICE_ROLE_KEY"))
    #expect(!error.message.contains(key) && error.hint?.contains(key) != true)
  }

  @Test func embeddedEmulatorKeyBeatsExportedVariables() throws {
    var target = Target(provider: .supabase, profile: "emulator", url: "http://127.0.0.1:1/auth/v1", key: "anon")
    target.admin.serviceKey = Self.serviceRole
    #expect(
      try AdminCredential.resolve(for: target, environment: ["SUPABASE_SECRET_KEY": "sb_secret_real_project_key"])
        == .supabaseServiceRole(Self.serviceRole))
  }

  @Test func supabaseWithNoAdminKeyAtAll() throws {
    let error = try #require(throws: AuthError.self) {
      try credential(["SUPABASE_URL": "https://x.supabase.co", "SUPABASE_ANON_KEY": "anon"])
    }
    #expect(error.code == .configError)
    #expect(error.hint?.contains("SUPABASE_SERVICE_ROLE_KEY") == true)
  }
}
