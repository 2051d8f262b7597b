import AuthCore

/// Identity Toolkit answers that depend on how the Firebase project is set up; each says what to
/// enable in the console.
enum IdentityToolkitProjectErrors {
  static func map(code: String, detail: String? = nil) -> AuthError? {
    switch code {
    case "OPERATION_NOT_ALLOWED" where detail?.hasPrefix("TOTP based MFA") == true:
      // `mfaEnrollment:start` while the project's `mfa` config has no TOTP provider.
      return AuthError(
        .configError, message: "TOTP second factors are not switched on for this Firebase project.",
        hint:
          "A project owner switches them on once: PATCH https://identitytoolkit.googleapis.com/v2/projects/PROJECT/config?updateMask=mfa"
          + #" with {"mfa":{"providerConfigs":[{"state":"ENABLED","totpProviderConfig":{"adjacentIntervals":5}}]}}"#
          + " (the Admin SDK's projectConfigManager().updateProjectConfig), then enrol again.")
    case "OPERATION_NOT_ALLOWED", "PASSWORD_LOGIN_DISABLED":
      return AuthError(
        .passwordSignInDisabled,
        hint: "Enable Email/Password in the Firebase console (Authentication → Sign-in method).")
    case "ADMIN_ONLY_OPERATION":
      return AuthError(
        .signupDisabled,
        hint: "Allow sign-up in the Firebase console (Authentication → Settings → User actions → Enable create).")
    case "CONFIGURATION_NOT_FOUND":
      return AuthError(
        .configError, message: "Firebase Authentication is not set up for this project.",
        hint:
          "Open Authentication in the Firebase console and click Get started; check that FIREBASE_API_KEY belongs to this project."
      )
    case "PROJECT_NOT_FOUND":
      return AuthError(
        .configError, message: "The Firebase project of this API key was not found.",
        hint: "Check FIREBASE_API_KEY / --key: use the Web API key of an existing project.")
    default:
      return nil
    }
  }
}
