/// A test server that is slow to answer, or never does: its handler holds the answer here until
/// the handler's task is cancelled or `limit` has passed, looking every 20 ms. No test waits on
/// the stall itself: what a test waits for is the client's own timeout or its cancellation, and
/// a stopped server does not wait for a held answer.
package enum Stall {
  package static let step = Duration.milliseconds(20)

  /// Returns after `limit`, or as soon as the task is cancelled.
  package static func hold(upTo limit: Duration) async {
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: limit)
    while !Task.isCancelled, clock.now < end {
      try? await Task.sleep(for: min(step, end - clock.now))
    }
  }
}
