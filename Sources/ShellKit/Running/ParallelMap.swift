import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// `map` on every core, in order: an import makes accounts of its records and checks them this
/// way while one thread reads the file. Small inputs are mapped on the calling thread.
enum ParallelMap {
  /// Items per worker below which another worker is not worth its start.
  static let grain = 128

  static func map<Item: Sendable, Mapped: Sendable>(_ items: [Item], _ transform: @Sendable (Item) -> Mapped)
    -> [Mapped]
  {
    let cores = max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
    let workers = min(cores, items.count / grain)
    guard workers > 1 else { return items.map(transform) }
    return [Mapped](unsafeUninitializedCapacity: items.count) { buffer, initialized in
      // Each worker initializes only its own slice of the buffer, and every slot is initialized.
      nonisolated(unsafe) let slots = buffer
      DispatchQueue.concurrentPerform(iterations: workers) { worker in
        let start = items.count * worker / workers
        let end = items.count * (worker + 1) / workers
        for index in start..<end { (slots.baseAddress! + index).initialize(to: transform(items[index])) }
      }
      initialized = items.count
    }
  }
}
