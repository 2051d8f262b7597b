import Synchronization

/// The first Ctrl-C (or SIGTERM) of a batch (a bulk change, an import): no new account starts,
/// and none whose account was looked up is sent its change; what is in flight finishes.
package final class BatchStop: Sendable {
  private let flag = Atomic<Bool>(false)
  package init() {}
  package func stop() { flag.store(true, ordering: .sequentiallyConsistent) }
  package var stopped: Bool { flag.load(ordering: .sequentiallyConsistent) }
}
