import JSONKit

/// The profile's admin-credential keys (`service_key_env`, `service_key`, `credentials_file`).
extension ConfigResolver {
  /// A `service_key` is an admin secret: like a session file, it is refused in a config file that
  /// group or others can read.
  func checkServiceKeyMode(_ profile: JSON?) throws {
    guard profile?["service_key"] != nil, let mode = configFile?.mode, mode & 0o077 != 0 else { return }
    throw AuthError(
      .configError,
      message:
        "Refusing to use \(paths.configFile): it holds a service_key and is readable by group or others (mode 0\(String(mode & 0o777, radix: 8))).",
      hint: "Run: chmod 600 \(paths.configFile), or use service_key_env instead of service_key.")
  }

  func adminSettings(_ profile: JSON?, profileName: String, explicit: Bool) -> AdminSettings {
    guard let profile else { return AdminSettings() }
    let named = ["service_key_env", "service_key", "credentials_file", "service_key_keyring", "credentials_keyring"]
      .contains {
        profile[$0] != nil
      }
    guard named || explicit else { return AdminSettings() }
    return AdminSettings(
      serviceKeyEnv: profile["service_key_env"]?.string, serviceKey: profile["service_key"]?.string,
      credentialsFile: profile["credentials_file"]?.string.map { Self.expandingTilde($0, home: environment["HOME"]) },
      profileChosen: explicit, profileSource: "[profiles.\(profileName)] of \(paths.configFile)",
      serviceKeyKeyring: profile["service_key_keyring"]?.string,
      credentialsKeyring: profile["credentials_keyring"]?.string)
  }

  /// `--credential-store`, else `AUTHSH_CREDENTIAL_STORE`, else the profile's `credential_store`,
  /// else `auto`. A profile chosen explicitly that sets `credential_store` wins over the variable,
  /// as for every setting; one that does not set it leaves the variable in effect (where sessions
  /// are kept is the user's choice, not the profile's connection).
  func credentialStore(flags: ConnectionFlags, settings: inout ConfigPrecedence) throws -> CredentialStoreChoice {
    if let mode = flags.credentialStore { return CredentialStoreChoice(mode, source: "--credential-store") }
    let variable = "AUTHSH_CREDENTIAL_STORE"
    let key = "credential_store"
    let fromProfile = settings.profile?[key]?.string
    let fromEnvironment = environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    let profileSource = "\(key) in [profiles.\(settings.profileName)] of \(paths.configFile)"
    let value: String
    let source: String
    if settings.explicit, let fromProfile {
      if let fromEnvironment, fromEnvironment != fromProfile { settings.noteIgnored(variable) }
      (value, source) = (fromProfile, profileSource)
    } else if let fromEnvironment {
      if let fromProfile, fromProfile != fromEnvironment { settings.noteOverride(variable, key: key) }
      (value, source) = (fromEnvironment, variable)
    } else if let fromProfile {
      (value, source) = (fromProfile, profileSource)
    } else {
      return CredentialStoreChoice()
    }
    // The file's checker has already refused any other value in config.toml.
    guard let mode = CredentialStoreMode(rawValue: value) else {
      throw AuthError(
        .configError, message: "\(variable) must be auto, keyring or file, not '\(value)'.",
        hint: Suggest.closest(to: value, among: CredentialStoreMode.allCases.map(\.rawValue)).map {
          "Did you mean '\($0)'?"
        }
          ?? "Unset it to use auto.")
    }
    return CredentialStoreChoice(mode, source: source)
  }

  /// `~/x` → `$HOME/x` (config files are not read by a shell).
  package static func expandingTilde(_ path: String, home: String?) -> String {
    guard let home, !home.isEmpty else { return path }
    if path == "~" { return home }
    guard path.hasPrefix("~/") else { return path }
    return (home.hasSuffix("/") ? String(home.dropLast()) : home) + path.dropFirst()
  }
}
