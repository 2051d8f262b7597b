import Essentials

/// The time, behind a protocol so tests can move it.
public protocol Clock: Sendable {
  func now() -> Date
}

public struct SystemClock: Clock {
  public init() {}
  public func now() -> Date { Date() }
}

extension Clock {
  public var unixNow: Int { Int(now().timeIntervalSince1970) }
}

/// A clock tests set by hand.
public final class ManualClock: Clock, Sendable {
  private let current: Guarded<Date>
  public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) { current = Guarded(start) }
  public func now() -> Date { current[\.self] }
  public func advance(_ seconds: TimeInterval) { current.update { $0 += seconds } }
}
