import AuthCore

/// GoTrue answers that depend on how the project is set up: the user cannot fix them by typing
/// something else, so each says what to change (or what to do instead).
enum GoTrueProjectErrors {
  static func map(code: String?, message: String) -> AuthError? {
    switch code {
    case "signup_disabled":
      return AuthError(
        .signupDisabled,
        hint: "Allow new users to sign up in the Supabase dashboard (Authentication → Sign In / Providers), or set "
          + "enable_signup = true under [auth] in supabase/config.toml (self-hosted: GOTRUE_DISABLE_SIGNUP=false).")
    case "email_provider_disabled":
      return AuthError(
        .passwordSignInDisabled,
        hint: "Enable the Email provider in the Supabase dashboard (Authentication → Sign In / Providers), or set "
          + "enable_signup = true under [auth.email] in supabase/config.toml (self-hosted: GOTRUE_EXTERNAL_EMAIL_ENABLED=true)."
      )
    case "same_password":
      return AuthError(.samePassword)
    case "reauthentication_needed":
      return AuthError(.reauthenticationNeeded)
    case "current_password_required":
      return AuthError(
        .reauthenticationNeeded, message: "This project asks for the current password to change it.",
        hint: "Use `authsh reset EMAIL` to set a new password from a mailed link instead.")
    case "captcha_failed":
      return AuthError(
        .configError, message: "The project requires a CAPTCHA, which authsh cannot solve.",
        hint: "Turn off CAPTCHA protection (Authentication → Attack Protection) on the project you use with authsh.")
    case "email_address_not_authorized":
      return AuthError(
        .configError,
        message: "Supabase will not mail this address: a project on the built-in e-mail service only mails "
          + "members of its team.",
        hint: "Use a team member's address, or set up custom SMTP (Authentication → Emails → SMTP Settings).")
    case "email_address_invalid":
      let text = message.isEmpty ? "Invalid email address" : message
      return AuthError(
        .validationFailed, message: text, fields: [FieldError(.email, code: "email_address_invalid", message: text)],
        hint: "The project refuses to mail this address (test domains such as example.com are refused); "
          + "use an address that can receive mail.")
    default:
      return nil
    }
  }
}
