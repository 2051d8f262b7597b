import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `map` on every core, in order: an import makes accounts of its records and checks them this
/// way while one thread reads the file. Small inputs are mapped on the calling thread.
enum ParallelMap {
  /// Items per worker below which another worker is not worth its start.
  static let grain = 128

  /// The items are taken in slices, each by whichever thread is free, so the thread that runs
  /// `meanwhile` first takes fewer.
  private final class Slices: Sendable {
    let next = Atomic<Int>(0)
    let meanwhileTaken = Atomic<Bool>(false)
  }

  /// `items.map(transform)`, computed on every core. `meanwhile` runs once, on the first thread to
  /// start, while the others map (an import reads its next records and visits the last ones
  /// there); that thread then joins the map. An error `meanwhile` throws is rethrown once the map
  /// is done. `concurrentPerform` runs every iteration on the calling thread when no other thread
  /// is free (a cooperative pool that is busy): the map never waits for a thread to start.
  static func map<Item: Sendable, Mapped: Sendable>(
    _ items: [Item], meanwhile: () throws -> Void = {}, _ transform: @Sendable (Item) -> Mapped
  ) throws -> [Mapped] {
    let cores = max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
    let workers = min(cores, items.count / grain)
    guard workers > 1 else {
      try meanwhile()
      return items.map(transform)
    }
    let size = max(grain / 2, items.count / (workers * 8))
    let count = (items.count + size - 1) / size
    let slices = Slices()
    nonisolated(unsafe) var thrown: (any Error)?
    // `concurrentPerform` returns once every iteration has, and keeps no reference to its closure:
    // `meanwhile` does not escape.
    let mapped = withoutActuallyEscaping(meanwhile) { meanwhile in
      // Run by one thread only (`meanwhileTaken`), while the caller waits in `concurrentPerform`.
      nonisolated(unsafe) let meanwhile = meanwhile
      return [Mapped](unsafeUninitializedCapacity: items.count) { buffer, initialized in
        // Each slice initializes only its own part of the buffer, and every slot is initialized.
        nonisolated(unsafe) let slots = buffer
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
          if !slices.meanwhileTaken.exchange(true, ordering: .acquiringAndReleasing) {
            do { try meanwhile() } catch { thrown = error }
          }
          while true {
            let slice = slices.next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard slice < count else { return }
            for index in slice * size..<min((slice + 1) * size, items.count) {
              (slots.baseAddress! + index).initialize(to: transform(items[index]))
            }
          }
        }
        initialized = items.count
      }
    }
    if let thrown { throw thrown }
    return mapped
  }
}
