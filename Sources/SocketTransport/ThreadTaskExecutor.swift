import AuthCore
import Essentials
import Synchronization

/// A `TaskExecutor` whose jobs run on the thread that calls `run()`: `authsh run` gives it the
/// main thread, and a script's task prefers it. A script is a chain of requests, each awaited
/// before the next is sent, so that thread may block on a socket: `SocketHTTPTransport` sends
/// and reads there with `poll`, with no event loop, callback or thread hop in between.
///
/// Work that should go on in parallel (a bulk change's requests, files run with `--jobs`) asks
/// for the global executor, where requests go through the event-loop transport instead.
package final class ThreadTaskExecutor: TaskExecutor {
  private struct Queue {
    var jobs: [UnownedJob] = []
    var stopped = false
  }

  private let queue = Mutex(Queue())
  private let ready = DispatchSemaphore(value: 0)

  package init() {}

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.withLock { $0.jobs.append(job) }
    ready.signal()
  }

  /// Runs the jobs given to this executor on the calling thread until `stop()`; the thread is
  /// marked as one that may block (`BlockingThread.isCurrent`).
  package func run() {
    BlockingThread.markCurrent()
    while true {
      ready.wait()
      let (jobs, stopped) = queue.withLock { queue in
        defer { queue.jobs.removeAll(keepingCapacity: true) }
        return (queue.jobs, queue.stopped)
      }
      for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
      if stopped, jobs.isEmpty { return }
    }
  }

  /// Ends `run()` once the jobs already given have run.
  package func stop() {
    queue.withLock { $0.stopped = true }
    ready.signal()
  }
}

/// Whether the current thread may wait on a socket: true on the thread of a `ThreadTaskExecutor`'s
/// `run()`, false on the concurrency runtime's pool and on event loops (blocking those could hold
/// up the very server a request waits for, the in-process emulator).
package enum BlockingThread {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  package static var isCurrent: Bool { pthread_getspecific(key) != nil }

  static func markCurrent() { pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1)) }
}

extension ThreadTaskExecutor {
  /// Runs `body` on a thread started for it, which may block (`BlockingThread.isCurrent`), and
  /// ends the thread after: blocking calls from code that runs on a shared pool.
  package static func onOwnThread<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    let executor = ThreadTaskExecutor()
    guard startThread({ executor.run() }) else {
      throw TransportFailure.other("no thread for the request (the system's limit)")
    }
    defer { executor.stop() }
    return try await withTaskExecutorPreference(executor) { try await body() }
  }
}
