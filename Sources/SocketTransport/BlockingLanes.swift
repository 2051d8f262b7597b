import AuthCore
import Essentials
import Synchronization

/// Threads that may block (`BlockingThread`), each running a `ThreadTaskExecutor`, started when
/// first asked for and kept for the life of the process: the lanes of a bulk change's parallel
/// requests (`RequestLanes`). A request on a lane is sent and read with socket calls right there
/// (`SocketHTTPTransport` through `ThreadRoutingTransport`), where the event-loop transport costs a
/// hop to the loop and back, and a wake-up each way, per request.
package final class BlockingLanes: Sendable {
  package static let shared = BlockingLanes()
  /// At most this many lanes; jobs beyond them run on the global executor (`RequestLanes`).
  package static let limit = 64

  private let lanes = Mutex<[ThreadTaskExecutor]>([])

  package init() {}

  /// `count` executors (at most `limit`; fewer when the system will not start more threads).
  package func executors(_ count: Int) -> [any TaskExecutor] {
    lanes.withLock { lanes in
      while lanes.count < min(count, Self.limit) {
        let executor = ThreadTaskExecutor()
        guard startThread({ executor.run() }) else { break }
        lanes.append(executor)
      }
      return Array(lanes.prefix(count))
    }
  }
}
