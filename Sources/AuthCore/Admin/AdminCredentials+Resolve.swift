// SKELETON (foundation commit): helper E replaces this with the full resolution (profile
// service_key_env / service_key with a 0600 check, GOOGLE_APPLICATION_CREDENTIALS /
// credentials_file parsed and permission-checked, clear config_error messages).
extension AdminCredential {
  /// The admin credential for `target`, from the environment and the profile.
  public static func resolve(for target: Target, environment: [String: String]) throws -> AdminCredential {
    switch target.provider {
    case .supabase:
      if let key = target.admin.serviceKey, !key.isEmpty { return key.hasPrefix("sb_secret_") ? .supabaseSecretKey(key) : .supabaseServiceRole(key) }
      if let key = environment["SUPABASE_SECRET_KEY"], !key.isEmpty { return .supabaseSecretKey(key) }
      if let key = environment["SUPABASE_SERVICE_ROLE_KEY"], !key.isEmpty { return .supabaseServiceRole(key) }
      throw AuthError(
        .configError,
        message: "Admin commands need a Supabase service_role key or secret key: set SUPABASE_SERVICE_ROLE_KEY or SUPABASE_SECRET_KEY.")
    case .firebase:
      if target.firebaseEmulatorHost != nil || target.url.hasPrefix("http://") { return .firebaseEmulatorOwner }
      throw AuthError(
        .configError, message: "Admin commands need a Google service account: set GOOGLE_APPLICATION_CREDENTIALS.")
    }
  }
}
