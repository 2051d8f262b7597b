import Essentials
import Synchronization

/// At most `events` in each fixed window of `interval` seconds (GoTrue's `IntervalLimiter`: the
/// count resets when a whole window has passed since the last reset).
final class IntervalLimiter: Sendable {
  private struct Window {
    var events: Int
    var start: Date?
    var count = 0
  }
  private let window: Mutex<Window>
  private let interval: TimeInterval

  init(events: Int, interval: TimeInterval) {
    window = Mutex(Window(events: events))
    self.interval = interval
  }

  func allow(at now: Date) -> Bool {
    window.withLock { window in
      let start = window.start ?? now
      let elapsed = now.timeIntervalSince(start)
      if elapsed >= interval {
        window.start = start.addingTimeInterval((elapsed / interval).rounded(.down) * interval)
        window.count = 0
      } else if window.start == nil {
        window.start = start
      }
      guard window.count < window.events else { return false }
      window.count += 1
      return true
    }
  }

  /// Events counted in the current window and the window's allowance (the web console shows them).
  var usage: (used: Int, events: Int) { window.withLock { ($0.count, $0.events) } }

  func reset() {
    window.withLock { window in
      window.start = nil
      window.count = 0
    }
  }

  /// Starts afresh with another number of events per window.
  func reset(events: Int) {
    window.withLock { window in
      window.events = events
      window.start = nil
      window.count = 0
    }
  }
}

/// A token bucket per key (tollbooth, as GoTrue limits per client address): `burst` requests at
/// once, refilled at `perSecond`.
final class TokenBucketLimiter: Sendable {
  private let perSecond: Double
  private let burst: Double
  private let buckets = Mutex<[String: (tokens: Double, at: Date)]>([:])
  /// Keeps memory bounded when many addresses are seen (a full bucket is forgotten first).
  private let maxKeys = 10_000

  init(perSecond: Double, burst: Int) {
    self.perSecond = perSecond
    self.burst = Double(burst)
  }

  func allow(key: String, at now: Date) -> Bool {
    buckets.withLock { buckets in
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

  func reset() { buckets.withLock { $0.removeAll() } }

  /// The keys whose bucket is empty at `now` (the next request would be refused), with the
  /// seconds until one request is allowed again. Reads only: no token is taken.
  func limited(at now: Date) -> [(key: String, retryAfter: Double)] {
    buckets.withLock { buckets in
      buckets.compactMap { key, bucket in
        let tokens = min(burst, bucket.tokens + max(0, now.timeIntervalSince(bucket.at)) * perSecond)
        guard tokens < 1 else { return nil }
        return (key, (1 - tokens) / perSecond)
      }.sorted { $0.key < $1.key }
    }
  }
}

/// Wrong answers per key in a fixed window that starts at the first one: `limit` of them, then
/// refused until the window is over; a right answer forgets the key.
final class FailureCounter: Sendable {
  private let failures = Mutex<[String: (count: Int, since: Date)]>([:])
  private let limit: Int
  private let window: TimeInterval

  init(limit: Int, window: TimeInterval) {
    self.limit = limit
    self.window = window
  }

  /// False while `key` has used up its wrong answers.
  func allows(_ key: String, at now: Date) -> Bool {
    failures.withLock { failures in
      guard let entry = failures[key] else { return true }
      if now.timeIntervalSince(entry.since) >= window {
        failures[key] = nil
        return true
      }
      return entry.count < limit
    }
  }

  func recordFailure(_ key: String, at now: Date) {
    failures.withLock { failures in
      var entry = failures[key] ?? (0, now)
      if now.timeIntervalSince(entry.since) >= window { entry = (0, now) }
      entry.count += 1
      if failures.count >= 10_000, failures[key] == nil { failures.removeAll(keepingCapacity: true) }
      failures[key] = entry
    }
  }

  func recordSuccess(_ key: String) { failures.withLock { $0[key] = nil } }

  func reset() { failures.withLock { $0.removeAll() } }
}
