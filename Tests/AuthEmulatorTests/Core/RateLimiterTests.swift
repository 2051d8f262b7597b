import Foundation
import Testing

@testable import AuthEmulator

@Suite("Rate limiters")
struct RateLimiterTests {
  let start = Date(timeIntervalSince1970: 1_767_225_600)

  @Test("wrong answers: the limit, then refused until the window that began with the first is over")
  func failureCounter() {
    let counter = FailureCounter(limit: 5, window: 3600)
    for minute in 0..<5 {
      #expect(counter.allows("a", at: start + Double(minute * 60)))
      counter.recordFailure("a", at: start + Double(minute * 60))
    }
    #expect(!counter.allows("a", at: start + 3599))
    #expect(counter.allows("b", at: start + 3599), "per key")
    #expect(counter.allows("a", at: start + 3600))
  }

  @Test("a right answer forgets the wrong ones")
  func successForgets() {
    let counter = FailureCounter(limit: 2, window: 3600)
    counter.recordFailure("a", at: start)
    counter.recordSuccess("a")
    counter.recordFailure("a", at: start + 1)
    #expect(counter.allows("a", at: start + 2))
    counter.recordFailure("a", at: start + 2)
    #expect(!counter.allows("a", at: start + 3))
  }

  @Test("the second-factor buckets: 30 at once, then one every 4 s at 15 a minute")
  func mfaBucket() {
    let rule = SupabaseLimit.factorVerify.rule(mfaPerMinute: 15)
    #expect(rule.burst == 30 && rule.perSecond == 0.25)
    let bucket = TokenBucketLimiter(perSecond: rule.perSecond, burst: rule.burst)
    for _ in 0..<30 { #expect(bucket.allow(key: "x", at: start)) }
    #expect(!bucket.allow(key: "x", at: start + 3.9))
    #expect(bucket.allow(key: "x", at: start + 4.1))
  }
}
