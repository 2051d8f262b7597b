/// The numbers the hosted products apply, each with where it comes from. The emulator's
/// like-production mode enforces them and `diagnose` reasons with them, so the two never disagree.
/// (The "Emulator modes" table of docs/emulator.md lists the same numbers.)
package enum ProductionLimits {
  package enum Supabase {
    /// Mails an hour for the whole project on Supabase's built-in mail service (the hosted
    /// rate-limits page: "2 emails per hour … You can only change this with your own custom SMTP
    /// setup").
    package static let builtInMailsPerHour = 2
    /// With the project's own SMTP server: GoTrue's `RATE_LIMIT_EMAIL_SENT` default
    /// (`internal/conf/configuration.go`), what hosted projects start with once SMTP is set.
    package static let customSMTPMailsPerHour = 30

    /// GoTrue's per-address token buckets (`internal/api/apilimiter`, tollbooth): `rate` per five
    /// minutes, `burst` at once. `RATE_LIMIT_TOKEN_REFRESH` for `/token`.
    package static let tokenPerFiveMinutes = 150.0
    /// `RATE_LIMIT_VERIFY` for `/verify`.
    package static let verifyPerFiveMinutes = 30.0
    /// `RATE_LIMIT_OTP` for `/signup`, `/recover`, `/resend`, `/otp`, `/magiclink` and `PUT /user`,
    /// each its own bucket.
    package static let otpPerFiveMinutes = 30.0
    /// `RATE_LIMIT_ANONYMOUS_USERS`: anonymous sign-ins per hour (burst = the hourly rate).
    package static let anonymousPerHour = 30.0
    /// The bucket size of the five-minute limits.
    package static let burst = 30
    /// `MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY` (`internal/conf/configuration.go`, default 15): requests a
    /// minute to `/factors/{id}/challenge` and, separately, to `/factors/{id}/verify` per address,
    /// with bursts of `mfaBurst` (`apilimiter.go`, `SetBurst(30)`).
    package static let mfaChallengeAndVerifyPerMinute = 15.0
    package static let mfaBurst = 30

    /// How long a mailed link or code stays usable, seconds: hosted projects' `mailer_otp_exp`
    /// ("Email OTP Expiration", 3600) and the Supabase CLI's `otp_expiry = 3600`. (GoTrue's own code
    /// default, `MAILER_OTP_EXP` 86400, applies only to a bare self-hosted GoTrue.)
    package static let linkLifetime = 3600
    /// Seconds a used refresh token may be presented again (`refresh_token_reuse_interval`, hosted
    /// and CLI default 10; GoTrue's code default is 0).
    package static let refreshReuseInterval = 10
    /// Seconds between two mails of one kind to one user (`SMTP_MAX_FREQUENCY`, GoTrue default 60).
    package static let mailInterval = 60

    /// SMS codes the project sends an hour (`RATE_LIMIT_SMS_SENT`, GoTrue default 30, the hosted
    /// rate-limits page's "SMS sent"); `sendPhoneConfirmation` checks it only for real (non-test)
    /// codes.
    package static let smsPerHour = 30
    /// Seconds between two codes to one number (`SMS_MAX_FREQUENCY`, GoTrue default 60).
    package static let smsInterval = 60
    /// How long an SMS code works, seconds (`SMS_OTP_EXP`, GoTrue default 60).
    package static let smsCodeLifetime = 60

    package static func mailsPerHour(customSMTP: Bool) -> Int {
      customSMTP ? customSMTPMailsPerHour : builtInMailsPerHour
    }
  }

  package enum Firebase {
    /// New accounts per IP address and hour (Firebase Authentication limits page, "Account creation
    /// and deletion limits").
    package static let accountsPerAddressHour = 100
    /// Mails a day on the no-cost Spark plan (the same page, "Email sending limits").
    package static let verificationMailsPerDay = 1000
    package static let changeMailsPerDay = 1000
    package static let resetMailsPerDay = 150
    package static let signInLinkMailsPerDay = 5
    /// Wrong second-factor codes (`mfaSignIn:finalize`) one account may send before sign-in answers
    /// `TOO_MANY_ATTEMPTS_TRY_LATER`, and the window they are counted in, seconds. Google publishes
    /// no number for this: a modelled limit in the spirit of the password lock-out, so a
    /// code-guessing loop meets a refusal as it would in production.
    package static let secondFactorGuesses = 5
    package static let secondFactorGuessWindow = 3600
    /// How long a password-reset link works, seconds (one hour).
    package static let resetLinkLifetime = 3600
  }
}
