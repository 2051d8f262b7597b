import Foundation

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
public final class ManualClock: Clock, @unchecked Sendable {
  private let lock = NSLock()
  private var current: Date
  public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) { current = start }
  public func now() -> Date {
    lock.lock()
    defer { lock.unlock() }
    return current
  }
  public func advance(_ seconds: TimeInterval) {
    lock.lock()
    current += seconds
    lock.unlock()
  }
}
