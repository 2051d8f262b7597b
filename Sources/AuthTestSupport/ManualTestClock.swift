import AuthCore
import AuthEmulator
import Foundation

/// One time for the emulator (`EmulatorClock`) and the providers talking to it (`Clock`), moved by
/// hand instead of slept through: Firebase's `validSince` has whole seconds, and the admin
/// provider sets it from its own clock, so a revocation is told apart from a sign-in only when
/// both sides see the next second. It starts at the real time, as the system clocks would.
package final class ManualTestClock: EmulatorClock, Clock {
  private let current: Guarded<Date>

  package init(_ start: Date = Date()) { current = Guarded(start) }

  package func now() -> Date { current[\.self] }

  package func advance(_ seconds: TimeInterval) { current.update { $0 += seconds } }
}
