import Essentials
import JSONKit
import Synchronization

/// An emulator's mail read once for a batch of lookups (`user show --from FILE`) instead of once
/// per account: inside `MailSnapshot.$current.withValue(MailSnapshot()) { … }` every GET of the
/// same mail URL (the whole outbox, the out-of-band codes) is sent once and its answer shared by
/// the lookups, including those running in child tasks.
package final class MailSnapshot: Sendable {
  @TaskLocal package static var current: MailSnapshot?

  package init() {}

  private let reads = Mutex<[String: Task<JSON, any Error>]>([:])

  /// The answer of GET `url` (or its error), fetched by the first caller only.
  package func json(_ url: URL, _ fetch: @escaping @Sendable () async throws -> JSON) async throws -> JSON {
    let task = reads.withLock { reads in
      if let task = reads[url.absoluteString] { return task }
      let task = Task { try await fetch() }
      reads[url.absoluteString] = task
      return task
    }
    return try await task.value
  }
}

extension AdminProvider {
  /// Runs `body` with the emulator's mail read once for all the lookups in it.
  package func readingMailOnce<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
    try await MailSnapshot.$current.withValue(MailSnapshot(), operation: body)
  }
}
