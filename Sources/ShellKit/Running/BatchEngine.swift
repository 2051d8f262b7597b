import AuthCore
import Essentials

/// What happened to one account of a batch (`--report` line `outcome`).
package enum BatchOutcome: String, Sendable, CaseIterable {
  /// The change was made.
  case changed
  /// The account was already as asked: nothing was sent.
  case unchanged
  /// `--dry-run`: the change that would be made; nothing was sent.
  case wouldChange = "would_change"
  case notFound = "not_found"
  /// The backend cannot make this change (nothing was sent).
  case notSupported = "not_supported"
  case failed
  /// The change was sent and no answer came back: it may have been applied.
  case unknown
  /// Never sent: the batch was stopped first.
  case notStarted = "not_started"

  /// An account with this outcome in an earlier run's report is done: `--resume` leaves it.
  /// `would_change` is done only for another dry run.
  func isDone(dryRun: Bool, code: String?) -> Bool {
    switch self {
    case .changed, .unchanged, .notFound, .notSupported: return true
    case .wouldChange: return dryRun
    case .unknown, .notStarted: return false
    case .failed: return !BatchOutcome.retryableCodes.contains(code ?? "")
    }
  }

  /// Failures that may go through when tried again later; `audit_unavailable` too (the change
  /// was made, its outcome not recorded: a set-operation sent again records it).
  static let retryableCodes = AuthError.mayPassLaterCodes.union([ErrorCode.auditUnavailable.rawValue])
}

/// A retry that a stopped batch did not make; `after` is the error of the last attempt.
struct BatchStopped: Error {
  var after: AuthError?

  /// The account's outcome, `sent` when the change was about to go out: the batch stopped before
  /// any attempt (`after` nil: nothing went out, even if `sent` was set just before), or after a
  /// rate limit (nothing was applied), is `not_started`; after an attempt that got no answer, `unknown`.
  func outcome(sent: Bool) -> BatchOutcome {
    guard sent, let after else { return .notStarted }
    return BatchRetrier.isRateLimit(after) ? .notStarted : .unknown
  }
}

/// One account of a batch, as the report and the summary see it. Never a secret.
package struct BatchRecord: Sendable, Equatable {
  /// The line as given (an address or id).
  package var input: String
  package var email: String?
  package var id: String?
  package var outcome: BatchOutcome
  /// The error code of a `failed` or `not_found` account.
  package var code: String?
  package var message: String

  package init(
    input: String, email: String? = nil, id: String? = nil, outcome: BatchOutcome, code: String? = nil, message: String
  ) {
    self.input = input
    self.email = email
    self.id = id
    self.outcome = outcome
    self.code = code
    self.message = message
  }
}

/// How hard a batch tries before it gives an account up.
package struct BatchPolicy: Sendable, Equatable {
  /// Retries of one request refused by a rate limit (429, `Retry-After`, `retry_after_seconds`).
  package var rateLimitRetries = 8
  /// Retries of one request after a 5xx answer, a timeout or a dropped connection.
  package var transientRetries = 3
  /// The first back-off without a `Retry-After`, doubled on each limit in a row, at most `maxDelay`.
  package var baseDelay = 0.5
  package var maxDelay = 30.0

  package init() {}
}

/// The time a batch waits on: real time, or a fake one in tests.
package protocol BatchClock: Sendable {
  /// Seconds, monotonic.
  func now() -> Double
  func sleep(seconds: Double) async throws
}

package struct SystemBatchClock: BatchClock {
  package init() {}
  package func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
  package func sleep(seconds: Double) async throws {
    guard seconds > 0 else { return }
    try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
  }
}

/// The back-off all workers of a batch share: a rate limit met by one worker pauses every worker
/// until the same moment, so the batch as a whole slows down instead of each worker hammering on.
/// Each pause is the server's `Retry-After` when it gave one, else an exponential delay; both get
/// up to 25 % jitter so the workers do not come back in lock-step.
package actor BatchBackOff {
  private let clock: any BatchClock
  private let policy: BatchPolicy
  private let jitter: @Sendable () -> Double
  private var resumeAt = 0.0
  private var streak = 0
  /// How many times the batch was slowed down, and for how long in all (for the summary).
  package private(set) var pauses = 0
  package private(set) var pausedSeconds = 0.0

  /// `jitter` answers a number in 0..<1.
  package init(
    clock: any BatchClock, policy: BatchPolicy, jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
  ) {
    self.clock = clock
    self.policy = policy
    self.jitter = jitter
  }

  /// Waits while the batch is paused.
  package func wait(stop: BatchStop? = nil) async throws {
    while true {
      let left = resumeAt - clock.now()
      guard left > 0, stop?.stopped != true else { return }
      // A batch that can be stopped looks up every quarter second (Ctrl-C ends a long pause).
      try await clock.sleep(seconds: stop == nil ? left : min(left, 0.25))
    }
  }

  /// A request met a rate limit: every worker waits until the pause is over. A limit met while
  /// the batch is already paused (a request sent before the pause began) does not lengthen it.
  package func slowDown(retryAfter: Int?) {
    let now = clock.now()
    guard resumeAt <= now else { return }
    let base = retryAfter.map { Double(max($0, 0)) } ?? min(policy.baseDelay * pow(2, Double(streak)), policy.maxDelay)
    let delay = max(base, 0.05) * (1 + 0.25 * jitter())
    streak += 1
    resumeAt = now + delay
    pauses += 1
    pausedSeconds += delay
  }

  /// A request went through: the next limit starts again from the base delay.
  package func eased() { streak = 0 }
}

/// Runs one request of a batch with the shared back-off and bounded retries. Rate limits pause
/// the whole batch and are retried; 5xx answers, timeouts and dropped connections are retried
/// when `retryTransient` (the change is an idempotent set-operation: making it twice leaves the
/// account as making it once does); any other error is the account's failure.
package struct BatchRetrier: Sendable {
  package let backOff: BatchBackOff
  package let clock: any BatchClock
  package let policy: BatchPolicy
  /// Once stopped, a failed attempt is not tried again (`BatchStopped`).
  package let stop: BatchStop?

  package init(backOff: BatchBackOff, clock: any BatchClock, policy: BatchPolicy, stop: BatchStop? = nil) {
    self.backOff = backOff
    self.clock = clock
    self.policy = policy
    self.stop = stop
  }

  /// `body` gets the attempt number (1 for the first).
  package func run<T: Sendable>(retryTransient: Bool = true, _ body: @Sendable (Int) async throws -> T) async throws
    -> T
  {
    var limited = 0
    var transient = 0
    var attempt = 0
    var last: AuthError?
    while true {
      try await backOff.wait(stop: stop)
      // Stopped: no attempt is made, the first or another.
      if stop?.stopped == true { throw BatchStopped(after: last) }
      attempt += 1
      do {
        let value = try await body(attempt)
        await backOff.eased()
        return value
      } catch let error as AuthError {
        last = error
        if Self.isRateLimit(error), limited < policy.rateLimitRetries {
          limited += 1
          await backOff.slowDown(retryAfter: error.retryAfterSeconds)
          continue
        }
        if retryTransient, error.isBackendFailure, transient < policy.transientRetries {
          transient += 1
          try await pause(min(policy.baseDelay * pow(2, Double(transient - 1)), policy.maxDelay))
          continue
        }
        throw error
      }
    }
  }

  /// `seconds` of the clock, cut short when the batch is stopped.
  private func pause(_ seconds: Double) async throws {
    guard let stop else { return try await clock.sleep(seconds: seconds) }
    let end = clock.now() + seconds
    while !stop.stopped, clock.now() < end { try await clock.sleep(seconds: min(end - clock.now(), 0.25)) }
  }

  static func isRateLimit(_ error: AuthError) -> Bool {
    error.code == .rateLimited || error.status == 429 || error.providerCode == "over_request_rate_limit"
  }
}

/// Counts of a batch, kept as accounts finish.
package struct BatchTally: Sendable, Equatable {
  package var total = 0
  /// Lines that named an account already listed (counted once).
  package var duplicates = 0
  package var counts: [BatchOutcome: Int] = [:]
  /// Failed and not-found accounts by error code.
  package var codes: [String: Int] = [:]
  /// The first failure (not a missing account), for the exit status.
  package var firstFailure: AuthError?

  package init() {}

  package mutating func add(_ record: BatchRecord, error: AuthError?) {
    total += 1
    counts[record.outcome, default: 0] += 1
    if let code = record.code, [.failed, .notFound, .notSupported].contains(record.outcome) {
      codes[code, default: 0] += 1
    }
    if record.outcome == .failed, firstFailure == nil { firstFailure = error }
  }

  /// Takes back what `add` counted (a `--resume`'s carried accounts, from this run's own counts).
  package mutating func remove(_ record: BatchRecord) {
    total -= 1
    counts[record.outcome, default: 0] -= 1
    if let code = record.code, [.failed, .notFound, .notSupported].contains(record.outcome) {
      codes[code, default: 0] -= 1
    }
    codes = codes.filter { $0.value > 0 }
  }

  package subscript(_ outcome: BatchOutcome) -> Int { counts[outcome] ?? 0 }
  package var problems: Int { self[.failed] + self[.notFound] + self[.notSupported] + self[.unknown] }
}

/// Runs `work` on every entry, `jobs` at a time, and tells `finished` of each as it completes.
/// Cancellation or `stop` stops the starting of new entries; those under way finish as their
/// tasks do, and every entry never started is told `finished` as `notStarted(entry)`, so each has
/// an outcome. The work runs on the runtime's pool, never on a script's own thread, where a
/// request blocks the thread until its answer (the entries would go one at a time).
package enum BatchRunner {
  package static func run<Entry: Sendable>(
    _ entries: [Entry], jobs: Int, stop: BatchStop? = nil,
    work: @escaping @Sendable (Entry) async -> (BatchRecord, AuthError?),
    notStarted: (Entry) -> BatchRecord, finished: (BatchRecord, AuthError?) -> Void
  ) async {
    func stopping() -> Bool { Task.isCancelled || stop?.stopped == true }
    var next = 0
    await withTaskGroup(of: (BatchRecord, AuthError?).self) { group in
      while next < entries.count, next < max(jobs, 1), !stopping() {
        let entry = entries[next]
        group.addTask(executorPreference: globalConcurrentExecutor) { await work(entry) }
        next += 1
      }
      while let (record, error) = await group.next() {
        finished(record, error)
        if next < entries.count, !stopping() {
          let entry = entries[next]
          group.addTask(executorPreference: globalConcurrentExecutor) { await work(entry) }
          next += 1
        }
      }
    }
    for entry in entries[next...] { finished(notStarted(entry), nil) }
  }
}
