/// What `config.toml` may contain: one row per key. Anything not listed here is an error (a typo
/// such as `porvider` must never fall back to another backend silently). To add a profile key,
/// add a row to `profileKeys`.
package enum ConfigSchema {
  package enum Kind: String, Sendable {
    case string, number, boolean
    /// A list of strings (`team = ["ada@example.com"]`).
    case strings
  }

  /// An extra check on a value beyond its kind.
  package enum Check: Sendable, Equatable {
    case oneOf([String])
    /// `http://` or `https://` with a host.
    case url
    /// `host:port`, without a scheme.
    case hostAndPort
    case positive
  }

  package struct Key: Sendable {
    package var name: String
    package var kind: Kind
    package var check: Check?
    package init(_ name: String, _ kind: Kind, _ check: Check? = nil) {
      self.name = name
      self.kind = kind
      self.check = check
    }
  }

  /// Keys at the top of the file.
  package static let topLevelKeys: [Key] = [
    Key("default_profile", .string)
  ]

  /// Tables at the top of the file: `[profiles.NAME]` (one table per profile) and `[emulator]`.
  package static let tables = ["profiles", "emulator"]

  /// Keys of the `[emulator]` table: defaults for `authsh emulator` and `--emulator`.
  package static let emulatorKeys: [Key] = [
    Key("like_production", .boolean),
    Key("smtp", .string, .oneOf(["built-in", "custom"])),
    Key("team", .strings),
    Key("captcha", .boolean),
  ]

  /// Keys of a `[profiles.NAME]` table.
  package static let profileKeys: [Key] = [
    Key("provider", .string, .oneOf(ProviderKind.allCases.map(\.rawValue))),
    Key("url", .string, .url),
    Key("key", .string),
    Key("key_env", .string),
    Key("project_id", .string),
    Key("tenant", .string),
    Key("emulator_host", .string, .hostAndPort),
    Key("timeout", .number, .positive),
    Key("allow_insecure_http", .boolean),
    Key("service_key_env", .string),
    Key("service_key", .string),
    Key("credentials_file", .string),
    Key("readonly", .boolean),
    Key("credential_store", .string, .oneOf(CredentialStoreMode.allCases.map(\.rawValue))),
    Key("service_key_keyring", .string),
    Key("credentials_keyring", .string),
    Key("flow", .string, .oneOf(["implicit", "pkce"])),
  ]

  package static func profileKey(_ name: String) -> Key? { profileKeys.first { $0.name == name } }
}
