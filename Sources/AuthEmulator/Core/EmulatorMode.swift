import Essentials
import HostedLimits
import Synchronization

/// Which mail service a hosted Supabase project sends through: the built-in one (2 mails an hour,
/// only to the organisation's team) or the project's own SMTP server (GoTrue's own limit).
package enum EmulatorSMTP: String, Sendable, CaseIterable {
  case builtIn = "built-in"
  case custom
}

/// Whether the emulator behaves like the hosted products (`--like-production`, `[emulator]
/// like_production`, `PUT /emulator/v1/config`), the settings that shape that behaviour (mail
/// service, team addresses, CAPTCHA), and the limits that only apply then. Shared by both sides;
/// switchable at run time. Every number here is in `ProductionLimits`, with its source.
package final class EmulatorMode: Sendable {
  private struct Settings {
    var likeProduction: Bool
    var smtp: EmulatorSMTP
    var team: [String]
    var captcha: Bool
  }
  private let settings: Mutex<Settings>
  /// The project's mail quota (`RATE_LIMIT_EMAIL_SENT`): 2 an hour on the built-in service, 30 with
  /// custom SMTP.
  let emailQuota: IntervalLimiter
  /// The project's SMS quota (`RATE_LIMIT_SMS_SENT`): like production only.
  let smsQuota = IntervalLimiter(events: ProductionLimits.Supabase.smsPerHour, interval: 3600)
  /// GoTrue's per-address limits, one bucket per route as `apilimiter.go` keeps them.
  private let supabaseLimiters: [SupabaseLimit: TokenBucketLimiter]
  /// `--mfa-rate-limit`: second-factor challenges (and verifications) a minute per address, in
  /// either mode; nil: like production only, at the hosted number.
  let mfaRateLimit: Double?
  /// Firebase: new accounts per address and hour, and the Spark plan's daily mail quotas.
  let firebaseSignUpLimiter: TokenBucketLimiter
  let firebaseMailQuotas: [FirebaseMailQuota: IntervalLimiter]
  /// Firebase: wrong second-factor codes per account (`mfaSignIn:finalize`).
  let firebaseSecondFactorGuesses = FailureCounter(
    limit: ProductionLimits.Firebase.secondFactorGuesses,
    window: TimeInterval(ProductionLimits.Firebase.secondFactorGuessWindow))

  package init(
    likeProduction: Bool, smtp: EmulatorSMTP = .builtIn, team: [String] = [], captcha: Bool = false,
    mfaRateLimit: Double? = nil
  ) {
    settings = Mutex(
      Settings(likeProduction: likeProduction, smtp: smtp, team: Self.normalizedTeam(team), captcha: captcha))
    emailQuota = IntervalLimiter(
      events: ProductionLimits.Supabase.mailsPerHour(customSMTP: smtp == .custom), interval: 3600)
    func perAddress(_ rate: Double, per interval: Double, burst: Int) -> TokenBucketLimiter {
      TokenBucketLimiter(perSecond: rate / interval, burst: burst)
    }
    self.mfaRateLimit = mfaRateLimit
    let mfaPerMinute = mfaRateLimit ?? ProductionLimits.Supabase.mfaChallengeAndVerifyPerMinute
    supabaseLimiters = Dictionary(
      uniqueKeysWithValues: SupabaseLimit.allCases.map { limit in
        let rule = limit.rule(mfaPerMinute: mfaPerMinute)
        return (limit, TokenBucketLimiter(perSecond: rule.perSecond, burst: rule.burst))
      })
    let firebase = ProductionLimits.Firebase.self
    firebaseSignUpLimiter = perAddress(
      Double(firebase.accountsPerAddressHour), per: 3600, burst: firebase.accountsPerAddressHour)
    firebaseMailQuotas = Dictionary(
      uniqueKeysWithValues: FirebaseMailQuota.allCases.map {
        ($0, IntervalLimiter(events: $0.perDay, interval: 86400))
      })
  }

  /// The mode and settings `config` starts with.
  package convenience init(config: EmulatorConfig) {
    self.init(
      likeProduction: config.likeProduction, smtp: config.smtp, team: config.team, captcha: config.captcha,
      mfaRateLimit: config.mfaRateLimit)
  }

  package var likeProduction: Bool { settings.withLock { $0.likeProduction } }
  package var smtp: EmulatorSMTP { settings.withLock { $0.smtp } }
  /// The organisation's team addresses (lower case): the only ones the built-in mail service
  /// delivers to.
  package var team: [String] { settings.withLock { $0.team } }
  /// Supabase: refuse calls without a CAPTCHA token (GoTrue `SECURITY_CAPTCHA_ENABLED`).
  package var captcha: Bool { settings.withLock { $0.captcha } }

  /// Switches the mode; the limits start afresh either way.
  package func set(likeProduction: Bool) {
    settings.withLock { $0.likeProduction = likeProduction }
    resetLimits()
  }

  package func set(smtp: EmulatorSMTP) {
    settings.withLock { $0.smtp = smtp }
    emailQuota.reset(events: ProductionLimits.Supabase.mailsPerHour(customSMTP: smtp == .custom))
  }

  package func set(team: [String]) {
    let normalized = Self.normalizedTeam(team)
    settings.withLock { $0.team = normalized }
  }
  package func set(captcha: Bool) { settings.withLock { $0.captcha = captcha } }

  func resetLimits() {
    emailQuota.reset()
    smsQuota.reset()
    for limiter in supabaseLimiters.values { limiter.reset() }
    firebaseSignUpLimiter.reset()
    firebaseSecondFactorGuesses.reset()
    firebaseMailQuotas.values.forEach { $0.reset() }
  }

  /// The bucket of a Supabase route when its limit applies now: like production, or a second-factor
  /// limit given a number (`--mfa-rate-limit`); else nil.
  func limiter(_ limit: SupabaseLimit) -> TokenBucketLimiter? {
    guard likeProduction || (limit.isSecondFactor && mfaRateLimit != nil) else { return nil }
    return supabaseLimiters[limit]
  }

  /// The bucket of a Supabase route whether or not its limit applies now (the console shows them).
  func bucket(_ limit: SupabaseLimit) -> TokenBucketLimiter? { supabaseLimiters[limit] }

  /// The sign-in bucket, read by `/emulator/v1/limits` in either mode.
  var tokenLimiter: TokenBucketLimiter? { supabaseLimiters[.token] }

  /// Whether the built-in mail service would deliver to `address`: always with custom SMTP or
  /// outside the like-production mode; else only to a team address. As GoTrue's
  /// `checkEmailAddressAuthorization`, a `+label` is ignored and case does not matter.
  func mayReceiveMail(_ address: String) -> Bool {
    guard likeProduction, smtp == .builtIn else { return true }
    let unlabelled = Self.withoutLabel(address.lowercased())
    return team.contains(unlabelled)
  }

  static func withoutLabel(_ address: String) -> String {
    guard let at = address.lastIndex(of: "@"), let plus = address[..<at].firstIndex(of: "+") else { return address }
    return String(address[..<plus]) + String(address[at...])
  }

  static func normalizedTeam(_ team: [String]) -> [String] {
    team.map { $0.trimmingSpaces.lowercased() }.filter { !$0.isEmpty }
  }
}

/// The mails a Firebase project may send a day on the no-cost plan, by kind.
enum FirebaseMailQuota: CaseIterable, Sendable {
  case verifyEmail, changeEmail, passwordReset, emailSignIn

  var perDay: Int {
    switch self {
    case .verifyEmail: return ProductionLimits.Firebase.verificationMailsPerDay
    case .changeEmail: return ProductionLimits.Firebase.changeMailsPerDay
    case .passwordReset: return ProductionLimits.Firebase.resetMailsPerDay
    case .emailSignIn: return ProductionLimits.Firebase.signInLinkMailsPerDay
    }
  }

  /// `sendOobCode`'s `requestType` → its quota (nil: not a mail, or not limited).
  init?(requestType: String) {
    switch requestType {
    case "VERIFY_EMAIL": self = .verifyEmail
    case "VERIFY_AND_CHANGE_EMAIL": self = .changeEmail
    case "PASSWORD_RESET": self = .passwordReset
    case "EMAIL_SIGNIN": self = .emailSignIn
    default: return nil
    }
  }

  /// Production's message: the code, then what ran out.
  var error: String {
    switch self {
    case .verifyEmail: return "QUOTA_EXCEEDED : Exceeded daily quota for email verification."
    case .changeEmail: return "QUOTA_EXCEEDED : Exceeded daily quota for email change."
    case .passwordReset: return "QUOTA_EXCEEDED : Exceeded daily quota for password reset."
    case .emailSignIn: return "QUOTA_EXCEEDED : Exceeded daily quota for email sign-in."
    }
  }
}
