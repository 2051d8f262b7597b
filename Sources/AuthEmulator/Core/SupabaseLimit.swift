import HostedLimits

/// GoTrue's per-address token buckets (`internal/api/apilimiter`), one per route as `api.go`
/// attaches them; the numbers are in `ProductionLimits.Supabase`.
enum SupabaseLimit: String, CaseIterable, Sendable {
  case token, verify, signup, anonymous, recover, resend, otp, magicLink, user
  /// `limiterOpts.FactorChallenge` and `FactorVerify`: `MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY`.
  case factorChallenge, factorVerify

  /// Requests a second and the bucket size; `mfaPerMinute` replaces the second-factor rate.
  func rule(mfaPerMinute: Double) -> (perSecond: Double, burst: Int) {
    let limits = ProductionLimits.Supabase.self
    switch self {
    case .token: return (limits.tokenPerFiveMinutes / 300, limits.burst)
    case .verify: return (limits.verifyPerFiveMinutes / 300, limits.burst)
    case .signup, .recover, .resend, .otp, .magicLink, .user: return (limits.otpPerFiveMinutes / 300, limits.burst)
    case .anonymous: return (limits.anonymousPerHour / 3600, Int(limits.anonymousPerHour))
    case .factorChallenge, .factorVerify: return (mfaPerMinute / 60, limits.mfaBurst)
    }
  }

  /// Applied outside the like-production mode too when the emulator was given a number for it.
  var isSecondFactor: Bool { self == .factorChallenge || self == .factorVerify }
}
