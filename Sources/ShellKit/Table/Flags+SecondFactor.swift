import AuthCore

/// Flags of second factors (`login`'s second step, `mfa …`) and of passwordless sign-in (a mailed
/// link, a texted code).

extension FlagKey where Value == String {
  package static let mfaCode = text(
    FlagSpec(
      "--code", value: "CODE", kind: .code, secret: true,
      "The 6-digit code from the authenticator app (with --phone: the code texted to the number)"))
  package static let mfaCodeEnv = text(
    FlagSpec(
      "--code-env", value: "VAR", kind: .variable,
      "Read the authenticator (or texted) code from environment variable VAR"))
  package static let loginPhone = text(
    FlagSpec(
      "--phone", value: "NUMBER", kind: .text,
      "Sign in without a password: text a code to NUMBER (E.164, +15551234567; a new number gets an account)"))
  package static let customToken = text(
    FlagSpec(
      "--custom-token", value: "TOKEN", kind: .code, secret: true,
      "Firebase: sign in with a custom token an app server minted (an Admin SDK's createCustomToken)"))
  package static let customTokenEnv = text(
    FlagSpec(
      "--custom-token-env", value: "VAR", kind: .variable,
      "Firebase: read the custom token from environment variable VAR (kept out of the process list)"))
  package static let oauth = text(
    FlagSpec(
      "--oauth", value: "PROVIDER", kind: .text, choices: OAuthStart.providers,
      "Sign in with a social provider in a browser (PKCE; the browser returns to a loopback address)"))
  package static let totpSecretEnv = text(
    FlagSpec(
      "--totp-secret-env", value: "VAR", kind: .variable,
      "Compute the authenticator code from the base32 TOTP secret in environment variable VAR (CI)"))
  package static let factor = text(
    FlagSpec("--factor", value: "ID|NAME", kind: .text, "Which second factor to use when the account has several"))
  package static let factorName = text(
    FlagSpec(
      "--name", value: "NAME", kind: .name,
      "A name for the factor (e.g. phone; without one Supabase factors get TOTP, the time and 4 hex digits)"))
}

extension FlagKey where Value == Bool {
  package static let link = toggle(
    FlagSpec("--link", "Sign in without a password: mail a link and code to EMAIL, then give either"))
  package static let sendOnly = toggle(
    FlagSpec(
      "--send-only", "With --phone: text the code and stop (no terminal); finish later with --code or --code-env"))
  package static let selfVerify = toggle(
    FlagSpec(
      "--self-verify",
      "Confirm the new factor with a code authsh computes from its secret (no terminal, CI; keep the secret from --json --show-tokens)"
    ))
}

/// Where `login`'s second-step code comes from, in the order commands list them.
package let secondFactorFlags: [any DeclaredFlag] = [
  FlagKey.mfaCode, FlagKey.mfaCodeEnv, FlagKey.totpSecretEnv, FlagKey.factor,
]
