import Essentials
import JSONKit

/// Resolves the target of commands: flags > environment > `config.toml` profile > defaults, except
/// that a profile chosen explicitly (`--profile`, `use`) wins over the environment. Says exactly
/// what to set when something is missing.
package struct ConfigResolver: Sendable {
  package var environment: [String: String] { didSet { lastResolved = Guarded(nil) } }
  package var paths: Paths { didSet { lastResolved = Guarded(nil) } }
  /// The config file's text and permission bits, nil when absent (a seam for tests).
  package var configFile: ConfigFileContents? { didSet { lastResolved = Guarded(nil) } }

  package struct ConfigFileContents: Sendable, Equatable {
    package var text: String
    package var mode: UInt32
    /// Why a file that exists could not be read ("it is a directory"), or nil.
    package var problem: String?
    /// The permission bits of the directory it is in, when known.
    package var directoryMode: UInt32?
    /// Why the file, its link target or a directory above them cannot be trusted (see
    /// `TrustedPath`), or nil.
    package var untrusted: TrustedPath.Problem?
    package init(text: String, mode: UInt32) {
      self.text = text
      self.mode = mode
    }
    /// A file that exists but cannot be read.
    package init(unreadable problem: String, mode: UInt32) {
      self.init(text: "", mode: mode)
      self.problem = problem
    }
  }

  /// The last document parsed, by the text and path it came from: every command of a shell or a
  /// script resolves its target, and the file does not change under a resolver.
  private let parsed = Guarded<(text: String, path: String, document: ConfigDocument)?>(nil)
  /// The last target resolved, by the flags it came from: nothing else it depends on changes
  /// under a resolver (a changed setting above starts afresh), so the steps of a script resolve
  /// their target once, not once a line.
  private var lastResolved = Guarded<(flags: ConnectionFlags, target: Target)?>(nil)

  package init(environment: [String: String], paths: Paths, configFile: ConfigFileContents?) {
    self.environment = environment
    self.paths = paths
    self.configFile = configFile
  }

  /// The parsed and checked config file, nil when there is none.
  package func document() throws -> ConfigDocument? {
    guard let configFile else { return nil }
    if let problem = configFile.problem {
      throw AuthError(.configError, message: "Cannot read \(paths.configFile): \(problem).")
    }
    if let untrusted = configFile.untrusted {
      throw AuthError(
        .configError, message: "Refusing to use \(paths.configFile): \(untrusted.reason).", hint: untrusted.hint)
    }
    try checkWritableByOthers(configFile)
    let path = paths.configFile
    if let last = parsed[\.self], last.text == configFile.text, last.path == path { return last.document }
    let document = try ConfigDocument.parse(configFile.text, path: path)
    parsed[\.self] = (configFile.text, path, document)
    return document
  }

  /// As ssh does for `~/.ssh/config`: a config file, or its directory, that group or others can
  /// write is not trusted (whoever can write it chooses where keys are sent).
  func checkWritableByOthers(_ file: ConfigFileContents) throws {
    let checked: [(String, UInt32?)] = [(paths.configFile, file.mode), (paths.configDirectory, file.directoryMode)]
    for (path, mode) in checked {
      guard let mode, mode & 0o022 != 0 else { continue }
      throw AuthError(
        .configError,
        message:
          "Refusing to use \(paths.configFile): group or others can write to \(path == paths.configFile ? "it" : "its directory \(path)") (mode 0\(String(mode & 0o777, radix: 8))), so they could choose where your keys are sent.",
        hint: "Run: chmod go-w \(path)")
    }
  }

  /// The parsed config file (an empty object when there is none).
  package func config() throws -> JSON {
    try document()?.root ?? .object(JSONObject())
  }

  package func profileNames() -> [String] {
    (try? document())?.profileNames ?? []
  }

  /// The profile name in effect: `--profile`, `AUTHSH_PROFILE`, `default_profile`, else "default".
  package func profileName(flags: ConnectionFlags) throws -> String {
    try flags.profile ?? env("AUTHSH_PROFILE") ?? config()["default_profile"]?.string ?? "default"
  }

  package func resolve(_ flags: ConnectionFlags) throws -> Target {
    if let last = lastResolved.update({ $0 }), last.flags == flags { return last.target }
    let target = try resolveAnew(flags)
    lastResolved.update { $0 = (flags, target) }
    return target
  }

  private func resolveAnew(_ flags: ConnectionFlags) throws -> Target {
    let document = try document()
    let profileName = try self.profileName(flags: flags)
    let profile = document?.profile(profileName)
    if let chosen = flags.profile ?? env("AUTHSH_PROFILE"), profile == nil {
      let known = document?.profileNames ?? []
      throw AuthError(
        .configError,
        message: "Profile '\(chosen)' is not defined in \(paths.configFile).",
        hint: known.isEmpty
          ? "Add a [profiles.\(chosen)] table to it." : "Defined profiles: \(known.joined(separator: ", ")).")
    }
    if profile?["key"] != nil, let mode = configFile?.mode, mode & 0o077 != 0 {
      throw AuthError(
        .configError,
        message:
          "\(paths.configFile) holds a key and is readable by group or others (mode 0\(String(mode & 0o777, radix: 8))).",
        hint: "Run: chmod 600 \(paths.configFile), or use key_env instead of key.")
    }
    try checkServiceKeyMode(profile)
    var settings = ConfigPrecedence(
      environment: environment, document: document, profile: profile, profileName: profileName,
      explicit: flags.profile != nil)
    guard let provider = try provider(flags: flags, settings: settings) else {
      throw Self.nothingConfigured(paths: paths)
    }
    let timeout = flags.timeout ?? profile?["timeout"]?.double ?? 30
    guard timeout > 0, timeout <= Target.maximumTimeout else {
      // Only the file's value can be out of range here (the flag is checked where it is read).
      let message = "timeout = \(NumberText.fixed(timeout, places: 3)) in [profiles.\(profileName)] is out of range"
      let hint = "Use a number of seconds more than 0 and at most 86400."
      throw document?.error(at: ["profiles", profileName, "timeout"], message, hint: hint)
        ?? AuthError(.configError, message: message, hint: hint)
    }
    let insecure = flags.allowInsecureHTTP || profile?["allow_insecure_http"]?.bool == true
    var target: Target
    switch provider {
    case .supabase:
      guard let url = settings.value(flag: flags.url, env: "SUPABASE_URL", key: "url") else {
        throw AuthError(
          .configError, message: "No Supabase URL is set.",
          hint: settings.explicit
            ? "Set url in [profiles.\(profileName)] of \(paths.configFile), or pass --url."
            : "Set SUPABASE_URL (e.g. https://abcd.supabase.co), pass --url, or set url in [profiles.\(profileName)] of \(paths.configFile)."
        )
      }
      guard let key = try settings.key(flag: flags.key, env: "SUPABASE_ANON_KEY") else {
        throw AuthError(
          .configError, message: "No Supabase anon key is set.",
          hint: settings.explicit
            ? "Set key_env in [profiles.\(profileName)] of \(paths.configFile), or pass --key."
            : "Set SUPABASE_ANON_KEY, pass --key, or set key_env in [profiles.\(profileName)] of \(paths.configFile).")
      }
      if flags.tenant != nil || profile?["tenant"] != nil {
        throw AuthError(
          .configError, message: "A tenant is a Firebase (Identity Platform) setting; Supabase has none.",
          hint: flags.tenant != nil
            ? "Drop --tenant." : "Remove tenant from [profiles.\(profileName)] of \(paths.configFile).")
      }
      target = Target(
        provider: .supabase, profile: profileName, url: Target.supabaseAuthBase(url), key: key,
        timeout: timeout, allowInsecureHTTP: insecure)
    case .firebase:
      if let url = flags.url, url.contains("://"),
        let problem = EndpointCheck.problem(url, what: "The Firebase emulator URL")
      {
        throw problem
      }
      let emulatorHost =
        flags.url.map(Target.hostAndPort)
        ?? settings.value(flag: nil, env: "FIREBASE_AUTH_EMULATOR_HOST", key: "emulator_host")
      guard
        let key = try settings.key(flag: flags.key, env: "FIREBASE_API_KEY")
          ?? (emulatorHost != nil ? "fake-api-key" : nil)
      else {
        throw AuthError(
          .configError, message: "No Firebase API key is set.",
          hint: settings.explicit
            ? "Set key_env in [profiles.\(profileName)] of \(paths.configFile), or pass --key."
            : "Set FIREBASE_API_KEY, pass --key, or set key_env in [profiles.\(profileName)] of \(paths.configFile).")
      }
      let base =
        emulatorHost.map { "http://\($0)/identitytoolkit.googleapis.com/v1" }
        ?? "https://identitytoolkit.googleapis.com/v1"
      target = Target(
        provider: .firebase, profile: profileName, url: base, key: key,
        projectId: settings.value(flag: nil, env: "FIREBASE_PROJECT_ID", key: "project_id"),
        firebaseEmulatorHost: emulatorHost, timeout: timeout, allowInsecureHTTP: insecure)
      target.tenantId = (flags.tenant ?? profile?["tenant"]?.string).flatMap { $0.isEmpty ? nil : $0 }
      if profile?["flow"]?.string == "pkce" {
        throw AuthError(
          .configError, message: "flow = \"pkce\" is a Supabase setting; Firebase has no PKCE flow.",
          hint: "Remove flow from [profiles.\(profileName)] of \(paths.configFile).")
      }
    }
    target.pkce = profile?["flow"]?.string == "pkce"
    target.environmentNotes = settings.notes
    target.admin = adminSettings(profile, profileName: profileName, explicit: settings.explicit)
    target.readonly = profile?["readonly"]?.bool == true
    target.credentialStore = try credentialStore(flags: flags, settings: &settings)
    target.environmentNotes = settings.notes
    return target
  }

  private func provider(flags: ConnectionFlags, settings: ConfigPrecedence) throws -> ProviderKind? {
    if let provider = flags.provider { return provider }
    // The file's checker has already refused any other spelling.
    if let name = settings.profile?["provider"]?.string { return ProviderKind(rawValue: name) }
    if settings.explicit {
      throw AuthError(
        .configError, message: "Profile '\(settings.profileName)' has no provider.",
        hint:
          "Add provider = \"supabase\" or provider = \"firebase\" to [profiles.\(settings.profileName)] of \(paths.configFile)."
      )
    }
    if env("SUPABASE_URL") != nil { return .supabase }
    if env("FIREBASE_API_KEY") != nil || env("FIREBASE_AUTH_EMULATOR_HOST") != nil { return .firebase }
    // `--url` stands for SUPABASE_URL as `--key` does for SUPABASE_ANON_KEY (on Firebase it is
    // only an emulator's address, given with --provider firebase or FIREBASE_API_KEY).
    if flags.url != nil { return .supabase }
    return nil
  }

  private func env(_ name: String) -> String? {
    guard let value = environment[name], !value.isEmpty else { return nil }
    return value
  }

  package static func nothingConfigured(paths: Paths) -> AuthError {
    AuthError(
      .configError, message: "No backend is configured.",
      hint: """
        Set SUPABASE_URL and SUPABASE_ANON_KEY (Supabase; or pass --url and --key), or FIREBASE_API_KEY \
        (Firebase; or pass --provider firebase --key; add FIREBASE_AUTH_EMULATOR_HOST for an emulator), \
        or add a profile to \(paths.configFile). \
        To try authsh offline, run `authsh emulator` and paste its export lines, or start `authsh --emulator`.
        """)
  }
}
