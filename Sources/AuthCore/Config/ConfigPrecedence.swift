import JSONKit

/// Picks each connection setting from a flag, an environment variable or the profile, and notes
/// where the environment overrode the profile or was ignored (names only: values may be secrets).
///
/// Normally the environment beats the profile. A profile chosen explicitly (`--profile`, `use`)
/// beats the environment: its settings are used, and variables it does not name are not read.
struct ConfigPrecedence {
  let environment: [String: String]
  let document: ConfigDocument?
  let profile: JSON?
  let profileName: String
  let explicit: Bool
  private(set) var notes: [String] = []

  init(environment: [String: String], document: ConfigDocument?, profile: JSON?, profileName: String, explicit: Bool) {
    self.environment = environment
    self.document = document
    self.profile = profile
    self.profileName = profileName
    self.explicit = explicit && profile != nil
  }

  /// A plain setting: `flag`, else the environment variable `name` or the profile's `key`.
  mutating func value(flag: String?, env name: String, key: String) -> String? {
    if let flag { return flag }
    let fromEnvironment = variable(name)
    let fromProfile = profile?[key]?.string
    if explicit {
      if fromEnvironment != nil, fromEnvironment != fromProfile { noteIgnored(name) }
      return fromProfile
    }
    if fromEnvironment != nil, let fromProfile, fromEnvironment != fromProfile { noteOverride(name, key: key) }
    return fromEnvironment ?? fromProfile
  }

  /// The API key: `flag`, else the environment variable `name` or the profile's `key` / `key_env`.
  mutating func key(flag: String?, env name: String) throws -> String? {
    if let flag { return flag }
    let fromEnvironment = variable(name)
    let profileNamesIt = profile?["key_env"]?.string == name
    if explicit {
      if fromEnvironment != nil, !profileNamesIt { noteIgnored(name) }
      return try profileKey()
    }
    if let fromEnvironment {
      if !profileNamesIt, let fromProfile = try? profileKey(), fromProfile != fromEnvironment {
        noteOverride(name, key: "key")
      }
      return fromEnvironment
    }
    return try profileKey()
  }

  /// `key`, or the value of the variable `key_env` names (an error naming file and line when unset).
  func profileKey() throws -> String? {
    if let key = profile?["key"]?.string { return key }
    guard let name = profile?["key_env"]?.string else { return nil }
    if let value = variable(name) { return value }
    let keyPath = ["profiles", profileName, "key_env"]
    // Only a near miss (`STAGING_ANON_KY`): among a whole environment, two edits make `NOPE` `HOME`.
    let suggestion = Suggest.choice(for: name, among: environment.keys.filter { variable($0) != nil }.sorted())
    let message =
      "key_env = \"\(name)\" in [profiles.\(profileName)] names an environment variable that is not set"
      + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    let hint = "Export \(name) (e.g. export \(name)=…), or fix the name."
    throw document?.error(at: keyPath, message, hint: hint) ?? AuthError(.configError, message: message, hint: hint)
  }

  private func variable(_ name: String) -> String? {
    guard let value = environment[name], !value.isEmpty else { return nil }
    return value
  }

  mutating func noteOverride(_ name: String, key: String) {
    notes.append(
      "environment: \(name) overrides \(key) of profile '\(profileName)' (--profile \(profileName) or `use \(profileName)` would use the profile's)."
    )
  }

  mutating func noteIgnored(_ name: String) {
    notes.append("environment: \(name) is set but not used: profile '\(profileName)' was chosen explicitly.")
  }
}
