import JSONKit

/// Resolves the target of commands: flags > environment > `config.toml` profile > defaults (SPEC §5),
/// and says exactly what to set when something is missing.
public struct ConfigResolver: Sendable {
  public var environment: [String: String]
  public var paths: Paths
  /// The config file's text and permission bits, nil when absent (a seam for tests).
  public var configFile: ConfigFileContents?

  public struct ConfigFileContents: Sendable, Equatable {
    public var text: String
    public var mode: UInt32
    public init(text: String, mode: UInt32) {
      self.text = text
      self.mode = mode
    }
  }

  public init(environment: [String: String], paths: Paths, configFile: ConfigFileContents?) {
    self.environment = environment
    self.paths = paths
    self.configFile = configFile
  }

  /// The parsed config file (an empty object when there is none).
  public func config() throws -> JSON {
    guard let configFile else { return .object(JSONObject()) }
    do {
      return try TOMLReader.parse(configFile.text)
    } catch let failure as TOMLReader.Failure {
      throw AuthError(.configError, message: "\(paths.configFile):\(failure.line): \(failure.message)")
    }
  }

  public func profileNames() -> [String] {
    ((try? config())?["profiles"]?.object?.keys ?? []).sorted()
  }

  /// The profile name in effect: `--profile`, `AUTHSH_PROFILE`, `default_profile`, else "default".
  public func profileName(flags: ConnectionFlags) throws -> String {
    try flags.profile ?? env("AUTHSH_PROFILE") ?? config()["default_profile"]?.string ?? "default"
  }

  public func resolve(_ flags: ConnectionFlags) throws -> Target {
    let config = try config()
    let profileName = try self.profileName(flags: flags)
    let profile = config["profiles"]?[profileName]
    let explicitProfile = flags.profile ?? env("AUTHSH_PROFILE")
    if let explicitProfile, profile == nil {
      let known = profileNames()
      throw AuthError(
        .configError,
        message: "Profile '\(explicitProfile)' is not defined in \(paths.configFile).",
        hint: known.isEmpty ? "Add a [profiles.\(explicitProfile)] table to it." : "Defined profiles: \(known.joined(separator: ", ")).")
    }
    if profile?["key"] != nil, let mode = configFile?.mode, mode & 0o077 != 0 {
      throw AuthError(
        .configError,
        message: "\(paths.configFile) holds a key and is readable by group or others (mode 0\(String(mode & 0o777, radix: 8))).",
        hint: "Run: chmod 600 \(paths.configFile), or use key_env instead of key.")
    }
    guard let provider = try provider(flags: flags, profile: profile, profileName: profileName) else {
      throw Self.nothingConfigured(paths: paths)
    }
    let profileKey = profile?["key"]?.string ?? profile?["key_env"]?.string.flatMap(env)
    let timeout = flags.timeout ?? profile?["timeout"]?.double ?? 30
    guard timeout > 0, timeout <= Target.maximumTimeout else {
      throw AuthError(
        .configError, message: "The timeout \(timeout) in [profiles.\(profileName)] of \(paths.configFile) is out of range.",
        hint: "Use a number of seconds between 1 and 86400.")
    }
    let insecure = flags.allowInsecureHTTP || profile?["allow_insecure_http"]?.bool == true
    switch provider {
    case .supabase:
      guard let url = flags.url ?? env("SUPABASE_URL") ?? profile?["url"]?.string else {
        throw AuthError(
          .configError, message: "No Supabase URL is set.",
          hint: "Set SUPABASE_URL (e.g. https://abcd.supabase.co), pass --url, or set url in [profiles.\(profileName)] of \(paths.configFile).")
      }
      guard let key = flags.key ?? env("SUPABASE_ANON_KEY") ?? profileKey else {
        throw AuthError(
          .configError, message: "No Supabase anon key is set.",
          hint: "Set SUPABASE_ANON_KEY, pass --key, or set key_env in [profiles.\(profileName)] of \(paths.configFile).")
      }
      return Target(
        provider: .supabase, profile: profileName, url: Target.supabaseAuthBase(url), key: key,
        timeout: timeout, allowInsecureHTTP: insecure)
    case .firebase:
      let emulatorHost = flags.url.map(Target.hostAndPort) ?? env("FIREBASE_AUTH_EMULATOR_HOST")
        ?? profile?["emulator_host"]?.string
      guard let key = flags.key ?? env("FIREBASE_API_KEY") ?? profileKey ?? (emulatorHost != nil ? "fake-api-key" : nil) else {
        throw AuthError(
          .configError, message: "No Firebase API key is set.",
          hint: "Set FIREBASE_API_KEY, pass --key, or set key_env in [profiles.\(profileName)] of \(paths.configFile).")
      }
      let base = emulatorHost.map { "http://\($0)/identitytoolkit.googleapis.com/v1" }
        ?? "https://identitytoolkit.googleapis.com/v1"
      return Target(
        provider: .firebase, profile: profileName, url: base, key: key,
        projectId: env("FIREBASE_PROJECT_ID") ?? profile?["project_id"]?.string, firebaseEmulatorHost: emulatorHost,
        timeout: timeout, allowInsecureHTTP: insecure)
    }
  }

  private func provider(flags: ConnectionFlags, profile: JSON?, profileName: String) throws -> ProviderKind? {
    if let provider = flags.provider { return provider }
    if let name = profile?["provider"]?.string {
      guard let kind = ProviderKind(rawValue: name) else {
        throw AuthError(
          .configError, message: "Profile '\(profileName)' has provider = \"\(name)\"; use \"supabase\" or \"firebase\".")
      }
      return kind
    }
    if env("SUPABASE_URL") != nil { return .supabase }
    if env("FIREBASE_API_KEY") != nil || env("FIREBASE_AUTH_EMULATOR_HOST") != nil { return .firebase }
    return nil
  }

  private func env(_ name: String) -> String? {
    guard let value = environment[name], !value.isEmpty else { return nil }
    return value
  }

  public static func nothingConfigured(paths: Paths) -> AuthError {
    AuthError(
      .configError, message: "No backend is configured.",
      hint: """
        Set SUPABASE_URL and SUPABASE_ANON_KEY (Supabase), or FIREBASE_API_KEY (Firebase; add \
        FIREBASE_AUTH_EMULATOR_HOST for an emulator), or add a profile to \(paths.configFile). \
        To try authsh offline, run `authsh emulator` and paste its export lines, or start `authsh --emulator`.
        """)
  }
}
