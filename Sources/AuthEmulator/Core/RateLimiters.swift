import Foundation

/// At most `events` in each fixed window of `interval` seconds (GoTrue's `IntervalLimiter`: the
/// count resets when a whole window has passed since the last reset).
final class IntervalLimiter: @unchecked Sendable {
  private let lock = NSLock()
  private var events: Int
  private let interval: TimeInterval
  private var windowStart: Date?
  private var count = 0

  init(events: Int, interval: TimeInterval) {
    self.events = events
    self.interval = interval
  }

  func allow(at now: Date) -> Bool {
    lock.withLock {
      let start = windowStart ?? now
      let elapsed = now.timeIntervalSince(start)
      if elapsed >= interval {
        windowStart = start.addingTimeInterval((elapsed / interval).rounded(.down) * interval)
        count = 0
      } else if windowStart == nil {
        windowStart = start
      }
      guard count < events else { return false }
      count += 1
      return true
    }
  }

  func reset() {
    lock.withLock {
      windowStart = nil
      count = 0
    }
  }

  /// Starts afresh with another number of events per window.
  func reset(events: Int) {
    lock.withLock {
      self.events = events
      windowStart = nil
      count = 0
    }
  }
}

/// A token bucket per key (tollbooth, as GoTrue limits per client address): `burst` requests at
/// once, refilled at `perSecond`.
final class TokenBucketLimiter: @unchecked Sendable {
  private let lock = NSLock()
  private let perSecond: Double
  private let burst: Double
  private var buckets: [String: (tokens: Double, at: Date)] = [:]
  /// Keeps memory bounded when many addresses are seen (a full bucket is forgotten first).
  private let maxKeys = 10_000

  init(perSecond: Double, burst: Int) {
    self.perSecond = perSecond
    self.burst = Double(burst)
  }

  func allow(key: String, at now: Date) -> Bool {
    lock.withLock {
      var bucket = buckets[key] ?? (burst, now)
      let elapsed = max(0, now.timeIntervalSince(bucket.at))
      bucket.tokens = min(burst, bucket.tokens + elapsed * perSecond)
      bucket.at = now
      let allowed = bucket.tokens >= 1
      if allowed { bucket.tokens -= 1 }
      if buckets.count >= maxKeys, buckets[key] == nil { buckets.removeAll(keepingCapacity: true) }
      buckets[key] = bucket
      return allowed
    }
  }

  func reset() { lock.withLock { buckets.removeAll() } }

  /// The keys whose bucket is empty at `now` (the next request would be refused), with the
  /// seconds until one request is allowed again. Reads only: no token is taken.
  func limited(at now: Date) -> [(key: String, retryAfter: Double)] {
    lock.withLock {
      buckets.compactMap { key, bucket in
        let tokens = min(burst, bucket.tokens + max(0, now.timeIntervalSince(bucket.at)) * perSecond)
        guard tokens < 1 else { return nil }
        return (key, (1 - tokens) / perSecond)
      }.sorted { $0.key < $1.key }
    }
  }
}
