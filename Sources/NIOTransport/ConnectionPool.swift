import NIOCore
import Synchronization

/// Idle keep-alive connections per host and port. A connection is handed to one request at a
/// time (`take` removes it) and closed after `idleTimeout` unused — shorter than the 5 s idle
/// limit of Node's HTTP server (the Firebase emulator), so a pooled socket is not closed by the
/// server just as a request is written to it.
final class ConnectionPool: Sendable {
  struct Key: Hashable, Sendable {
    let host: String
    let port: Int
  }

  private struct Idle: Sendable {
    let id: ObjectIdentifier
    let channel: any Channel
    let expiry: Scheduled<Void>
  }

  let idleTimeout: TimeAmount
  private let idle = Mutex<[Key: [Idle]]>([:])
  private let opened = Mutex(0)

  init(idleTimeout: TimeAmount) {
    self.idleTimeout = idleTimeout
  }

  /// How many connections were opened so far (a connection reused does not count again).
  var connectionsOpened: Int { opened.withLock { $0 } }

  /// Counts a new connection and drops it from the pool whenever it closes.
  func opened(_ channel: any Channel, for key: Key) {
    opened.withLock { $0 += 1 }
    let id = ObjectIdentifier(channel)
    channel.closeFuture.whenComplete { [self] _ in _ = remove(id, key) }
  }

  /// How many connections are parked now.
  var idleCount: Int { idle.withLock { $0.values.reduce(0) { $0 + $1.count } } }

  /// An idle, still open connection to `key`, now owned by the caller.
  func take(_ key: Key) -> (any Channel)? {
    while let entry = idle.withLock({ $0[key]?.popLast() }) {
      entry.expiry.cancel()
      if entry.channel.isActive { return entry.channel }
      entry.channel.close(promise: nil)
    }
    return nil
  }

  /// Parks `channel` for the next request to `key`; it closes itself after `idleTimeout`, or
  /// leaves the pool at once if the server closes it.
  func put(_ channel: any Channel, for key: Key) {
    guard channel.isActive else { return }
    let id = ObjectIdentifier(channel)
    let expiry = channel.eventLoop.scheduleTask(in: idleTimeout) { [self] in
      if remove(id, key) { channel.close(promise: nil) }
    }
    idle.withLock { $0[key, default: []].append(Idle(id: id, channel: channel, expiry: expiry)) }
  }

  /// Removes the entry if it is still parked; false when a request has taken it meanwhile.
  private func remove(_ id: ObjectIdentifier, _ key: Key) -> Bool {
    idle.withLock { pool in
      guard let index = pool[key]?.firstIndex(where: { $0.id == id }) else { return false }
      pool[key]?.remove(at: index)
      return true
    }
  }
}
