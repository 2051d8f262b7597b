import Essentials

/// The time, behind a protocol so tests can move it.
package protocol Clock: Sendable {
  func now() -> Date
}

package struct SystemClock: Clock {
  package init() {}
  package func now() -> Date { Date() }
}

extension Clock {
  package var unixNow: Int { Int(now().timeIntervalSince1970) }
}

/// A clock tests set by hand.
package final class ManualClock: Clock, Sendable {
  private let current: Guarded<Date>
  package init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) { current = Guarded(start) }
  package func now() -> Date { current[\.self] }
  package func advance(_ seconds: TimeInterval) { current.update { $0 += seconds } }
}
