/// Where a bulk change's parallel requests run. A surface that has threads which may block on a
/// socket (authsh's own: `SocketTransport`'s `BlockingLanes`) calls `install` once, at start; an
/// importer asks for one executor per job, and each job's requests are then written and read on
/// its own thread with no event-loop hop. Not installed (tests, the library used elsewhere): the
/// runtime's global executor.
package enum RequestLanes {
  private static let maker = Guarded<(@Sendable (_ count: Int) -> [any TaskExecutor])?>(nil)

  package static func install(_ make: @escaping @Sendable (_ count: Int) -> [any TaskExecutor]) {
    maker.update { $0 = make }
  }

  /// `count` executors for `count` jobs; nil where there is none (the global executor).
  package static func executors(_ count: Int) -> [(any TaskExecutor)?] {
    let make = maker.update { $0 }
    guard let make, count > 0 else { return Array(repeating: nil, count: max(count, 0)) }
    let made = make(count)
    return (0..<count).map { made.indices.contains($0) ? made[$0] : nil }
  }
}
