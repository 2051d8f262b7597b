import AuthCore

/// The platform's keyring: the login Keychain on macOS, the Secret Service (libsecret, loaded at
/// run time) on Linux, none elsewhere.
package enum PlatformKeyring {
  package static func make(environment: [String: String]) -> (any SecretStore)? {
    #if canImport(Security)
      return KeychainSecretStore()
    #elseif os(Linux)
      return LibSecretStore(environment: environment)
    #else
      return nil
    #endif
  }
}
