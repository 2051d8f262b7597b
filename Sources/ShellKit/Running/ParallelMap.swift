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

  /// The items are taken in slices, each by whichever thread is free, so a thread that did other
  /// work first (`meanwhile`) takes fewer.
  private final class Slices: Sendable {
    let next = Atomic<Int>(0)
  }

  /// `items.map(transform)`, computed on every core. `meanwhile` runs on the calling thread while
  /// the other cores have started (an import reads its next records and visits the last ones
  /// there); the calling thread then joins the map. An error `meanwhile` throws is rethrown once
  /// the map is done.
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
    var thrown: (any Error)?
    let mapped = [Mapped](unsafeUninitializedCapacity: items.count) { buffer, initialized in
      // Each slice initializes only its own part of the buffer, and every slot is initialized.
      nonisolated(unsafe) let slots = buffer
      withoutActuallyEscaping(transform) { transform in
        @Sendable func run() {
          while true {
            let slice = slices.next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard slice < count else { return }
            for index in slice * size..<min((slice + 1) * size, items.count) {
              (slots.baseAddress! + index).initialize(to: transform(items[index]))
            }
          }
        }
        let group = DispatchGroup()
        for _ in 1..<workers { DispatchQueue.global().async(group: group) { run() } }
        do { try meanwhile() } catch { thrown = error }
        run()
        group.wait()
      }
      initialized = items.count
    }
    if let thrown { throw thrown }
    return mapped
  }
}
