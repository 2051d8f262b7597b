import NIOCore

/// A `TaskExecutor` that runs a task's jobs on one NIO event loop. A script is a chain of awaits
/// on requests whose answers arrive on that loop: with the task preferring it, a resumed await
/// runs on the thread that read the answer instead of hopping to the concurrency runtime's pool
/// and back (two context switches and a wake-up per request, most of a step's cost on loopback).
///
/// Only for tasks that never block waiting on the loop itself (a blocking terminal read is fine;
/// waiting synchronously on a future of this loop would deadlock).
public final class EventLoopTaskExecutor: TaskExecutor {
  public let loop: any EventLoop

  public init(_ loop: any EventLoop) {
    self.loop = loop
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
