import AuthCore
import Dispatch
import Essentials
import ShellKit

/// SIGINT and SIGTERM as events (`authsh run`): the first calls `onInterrupt` and says what
/// happens next; a second one exits 130 at once.
enum InterruptSignals {
  static func install(sink: StandardSink, onInterrupt: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
    let count = Counter()
    return [SIGINT, SIGTERM].map { number in
      // The default action must be off before a dispatch source can see the signal.
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        guard count.next() == 1 else { _exit(130) }
        sink.err("\nInterrupted: the tests left are skipped; cleanup blocks run now (again to stop at once).\n")
        onInterrupt()
      }
      source.resume()
      return source
    }
  }

  /// Taken in the dispatch source's handler (on a queue), never in a C signal handler.
  final class Counter: Sendable {
    private let value = Guarded(0)
    func next() -> Int {
      value.update { value in
        value += 1
        return value
      }
    }
  }
}
