import Foundation

/// Whether the emulator behaves like the hosted products (`--like-production`, `[emulator]
/// like_production`, `PUT /emulator/v1/config`), and the limits that only apply then. Shared by
/// both sides; switchable at run time.
public final class EmulatorMode: Sendable {
  private let flag: LockedValue<Bool>
  /// GoTrue `RATE_LIMIT_EMAIL_SENT`: 30 mails per hour for the whole project.
  let emailQuota: IntervalLimiter
  /// GoTrue's per-IP `/token` limit: `RATE_LIMIT_TOKEN_REFRESH` 150 per 5 minutes, burst 30.
  let tokenLimiter: TokenBucketLimiter
  /// GoTrue's per-IP `/verify` limit: `RATE_LIMIT_VERIFY` 30 per 5 minutes, burst 30.
  let verifyLimiter: TokenBucketLimiter

  public init(likeProduction: Bool) {
    flag = LockedValue(likeProduction)
    emailQuota = IntervalLimiter(events: 30, interval: 3600)
    tokenLimiter = TokenBucketLimiter(perSecond: 150.0 / 300, burst: 30)
    verifyLimiter = TokenBucketLimiter(perSecond: 30.0 / 300, burst: 30)
  }

  public var likeProduction: Bool { flag.get() }

  /// Switches the mode; the limits start afresh either way.
  public func set(likeProduction: Bool) {
    flag.set(likeProduction)
    emailQuota.reset()
    tokenLimiter.reset()
    verifyLimiter.reset()
  }
}
