import JSONKit

/// Where an admin credential comes from, and in which order.
///
/// Supabase: `SUPABASE_SECRET_KEY`, then `SUPABASE_SERVICE_ROLE_KEY`, then the profile's
/// `service_key_env` (the variable it names), then the profile's `service_key_keyring` (a secret
/// stored with `authsh secret set NAME`), then the profile's `service_key`. When the profile
/// was chosen explicitly (`--profile`, `use`), only the profile's own settings are used and the
/// generic variables are not read (a key exported for one project must not reach another). A key
/// authsh sets itself (the embedded emulator's) comes first.
///
/// Firebase: `GOOGLE_APPLICATION_CREDENTIALS`, then the profile's `credentials_keyring` (a
/// service-account JSON stored with `authsh secret set NAME`), then its `credentials_file` (only
/// the profile's for an explicitly chosen profile): a service-account key, a user's Application
/// Default Credentials or an impersonation file. Without one, an emulator host gets
/// `Bearer owner`; production is refused. With both, the service account is used (the exchange
/// runs against the file's `token_uri`).
extension AdminCredential {
  /// The admin credential for `target`, from the environment and the profile.
  /// `keyring`: where `service_key_keyring` / `credentials_keyring` are looked up (nil: nowhere).
  package static func resolve(
    for target: Target, environment: [String: String], keyring: (any SecretStore)? = nil
  ) throws -> AdminCredential {
    switch target.provider {
    case .supabase: return try supabase(target.admin, environment: environment, keyring: keyring)
    case .firebase: return try firebase(target, environment: environment, keyring: keyring)
    }
  }

  /// The value of the secret `name` (`authsh secret set NAME`), named by `key` in `source`.
  static func keyringSecret(_ name: String, key: String, source: String, keyring: (any SecretStore)?) throws -> String {
    let setting = "\(key) = \"\(name)\" in \(source)"
    guard let keyring else {
      throw AuthError(
        .configError, message: "\(setting) names a keyring secret, but this platform has no keyring authsh can use.",
        hint: "Use service_key_env or credentials_file instead.")
    }
    if let reason = keyring.unavailableReason() {
      throw AuthError(
        .configError, message: "\(setting) names a secret in \(keyring.name), which is not reachable: \(reason).",
        hint: SessionStores.secretsKeyringHint)
    }
    guard let value = try keyring.read(.serviceKey(name)), !value.trimmingWhitespace.isEmpty else {
      let known = (try? keyring.names(of: .serviceKey)) ?? []
      throw AuthError(
        .configError, message: "\(setting) names no secret stored in \(keyring.name).",
        hint: "Store it: authsh secret set \(name)"
          + (Suggest.closest(to: name, among: known).map { " (or did you mean '\($0)'?)" } ?? ""))
    }
    return value
  }

  static let supabaseVariables = ["SUPABASE_SECRET_KEY", "SUPABASE_SERVICE_ROLE_KEY"]

  static func supabase(_ admin: AdminSettings, environment: [String: String], keyring: (any SecretStore)? = nil) throws
    -> AdminCredential
  {
    func variable(_ name: String) -> String? {
      guard let value = environment[name]?.trimmingWhitespace, !value.isEmpty else { return nil }
      return value
    }
    // A key set by authsh itself (the embedded emulator's service_role key), not read from config.toml.
    if admin.profileSource == nil, let key = admin.serviceKey, !key.isEmpty {
      return try SupabaseAdminKey.classify(key, source: "the embedded emulator")
    }
    if !admin.profileChosen {
      for name in supabaseVariables {
        if let key = variable(name) { return try SupabaseAdminKey.classify(key, source: name) }
      }
    }
    let source = admin.profileSource ?? "the profile"
    if let name = admin.serviceKeyEnv {
      guard let key = variable(name) else {
        throw AuthError(
          .configError,
          message: "service_key_env = \"\(name)\" in \(source) names an environment variable that is not set.",
          hint: "Export \(name) (e.g. export \(name)=…) with the project's service_role or secret key, or fix the name."
        )
      }
      return try SupabaseAdminKey.classify(key, source: "\(name) (named by service_key_env in \(source))")
    }
    if let name = admin.serviceKeyKeyring {
      let key = try keyringSecret(name, key: "service_key_keyring", source: source, keyring: keyring).trimmingWhitespace
      return try SupabaseAdminKey.classify(
        key, source: "the keyring secret '\(name)' (named by service_key_keyring in \(source))")
    }
    if let key = admin.serviceKey?.trimmingWhitespace, !key.isEmpty {
      return try SupabaseAdminKey.classify(key, source: "service_key in \(source)")
    }
    let ignored = admin.profileChosen ? supabaseVariables.filter { variable($0) != nil } : []
    throw AuthError(
      .configError,
      message: "Admin commands need the project's service_role key or secret key (sb_secret_…).",
      hint: ignored.isEmpty
        ? "Set SUPABASE_SERVICE_ROLE_KEY or SUPABASE_SECRET_KEY, or service_key_env in the profile of config.toml."
        : "\(ignored.joined(separator: " and ")) is set but not used: the profile was chosen explicitly. Add service_key_env = \"\(ignored[0])\" to \(admin.profileSource ?? "the profile")."
    )
  }

  static func firebase(_ target: Target, environment: [String: String], keyring: (any SecretStore)? = nil) throws
    -> AdminCredential
  {
    let admin = target.admin
    let fromEnvironment = environment["GOOGLE_APPLICATION_CREDENTIALS"].flatMap { $0.isEmpty ? nil : $0 }
    let choice: (path: String, source: String)?
    if !admin.profileChosen, let path = fromEnvironment {
      choice = (ConfigResolver.expandingTilde(path, home: environment["HOME"]), "GOOGLE_APPLICATION_CREDENTIALS")
    } else if let name = admin.credentialsKeyring {
      let source = admin.profileSource ?? "the profile"
      let json = try keyringSecret(name, key: "credentials_keyring", source: source, keyring: keyring)
      return .firebaseServiceAccount(
        try ServiceAccountFile.parse(
          Array(json.utf8), path: "keyring secret '\(name)'",
          what: "The service account in the keyring secret '\(name)'"))
    } else if let path = admin.credentialsFile, !path.isEmpty {
      choice = (path, "credentials_file in \(admin.profileSource ?? "the profile")")
    } else {
      choice = nil
    }
    if let choice {
      return try ServiceAccountFile.loadCredential(choice.path, source: choice.source)
    }
    if target.firebaseEmulatorHost != nil || target.url.hasPrefix("http://") { return .firebaseEmulatorOwner }
    throw AuthError(
      .configError, message: "Admin commands on Firebase need a Google service account.",
      hint: admin.profileChosen && fromEnvironment != nil
        ? "GOOGLE_APPLICATION_CREDENTIALS is set but not used: the profile was chosen explicitly. Set credentials_file in \(admin.profileSource ?? "the profile")."
        : "Set GOOGLE_APPLICATION_CREDENTIALS to the service-account JSON file (Firebase console › Project settings › Service accounts › Generate new private key), or credentials_file in the profile of config.toml."
    )
  }
}

/// Tells a Supabase admin key from an anon/publishable key given by mistake. Messages name where
/// the key came from, never the key.
package enum SupabaseAdminKey {
  package static func classify(_ key: String, source: String) throws -> AdminCredential {
    if key.hasPrefix("sb_secret_") { return .supabaseSecretKey(key) }
    if key.hasPrefix("sb_publishable_") {
      throw AuthError(
        .configError, message: "The key in \(source) is a publishable key (sb_publishable_…), not an admin key.",
        hint:
          "Use the project's secret key (sb_secret_…) or service_role key: Supabase dashboard › Project Settings › API Keys."
      )
    }
    if let claims = JWTClaims.decode(key) {
      let role = claims["role"]?.string
      if role == "service_role" { return .supabaseServiceRole(key) }
      throw AuthError(
        .configError,
        message:
          "The key in \(source) is \(role == "anon" ? "the anon key" : "a JWT with role '\(role ?? "none")'"), not an admin key.",
        hint: "Use the project's service_role key (a JWT with role service_role) or secret key (sb_secret_…).")
    }
    throw AuthError(
      .configError,
      message: "The key in \(source) is neither a service_role key (a JWT) nor a secret key (sb_secret_…).",
      hint: "Copy the service_role or secret key again from the Supabase dashboard › Project Settings › API Keys.")
  }
}
