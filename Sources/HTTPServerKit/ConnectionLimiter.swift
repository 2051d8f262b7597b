import NIOCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// RLIMIT_NOFILE: an enum case in Glibc, a plain Int32 in Darwin.
#if canImport(Glibc)
  private let openFilesResource = Int32(RLIMIT_NOFILE.rawValue)
#else
  private let openFilesResource = RLIMIT_NOFILE
#endif

/// On the listening channel: counts open connections and stops accepting while `limit` are open,
/// so the process never runs out of descriptors (new clients wait in the listen backlog and are
/// accepted as soon as a connection closes; the one idle longest is closed to make room).
/// Everything runs on the listener's event loop.
final class ConnectionLimiter: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = Channel
  typealias InboundOut = Channel
  typealias OutboundIn = Channel

  private let limit: Int
  private let registry: ConnectionRegistry
  private let state: ServerState
  private var open = 0
  private var readWaiting = false

  init(limit: Int, registry: ConnectionRegistry, state: ServerState) {
    self.limit = max(1, limit)
    self.registry = registry
    self.state = state
  }

  func read(context: ChannelHandlerContext) {
    if open >= limit {
      readWaiting = true
      // An accept batch may have gone past the limit: make room for one more.
      var excess = open - limit + 1
      while excess > 0 && registry.closeOldestIdle() { excess -= 1 }
      // Connections accepted a moment ago register as idle on their own event loops, which may
      // not have run yet: look again shortly, rather than wait for a close nothing will make
      // (the idle timeout) while a client waits in the backlog.
      if excess > 0 { retryLater(context: context) }
    } else {
      context.read()
    }
  }

  private var retryScheduled = false

  private func retryLater(context: ChannelHandlerContext) {
    guard !retryScheduled else { return }
    retryScheduled = true
    let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    context.eventLoop.assumeIsolated().scheduleTask(in: Self.retryInterval) {
      let (this, context) = bound.value
      this.retryScheduled = false
      guard this.readWaiting, !this.state.isStopped else { return }
      if this.open < this.limit {
        this.readWaiting = false
        context.read()
      } else {
        this.read(context: context)
      }
    }
  }

  /// How soon a listener at its limit looks again for an idle connection to close.
  static let retryInterval = TimeAmount.milliseconds(20)

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let child = unwrapInboundIn(data)
    open += 1
    let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    let listenerLoop = context.eventLoop
    let state = self.state
    child.closeFuture.whenComplete { _ in
      // While stopping, the listener's loop may already be gone: nothing to count any more.
      guard !state.isStopped else { return }
      listenerLoop.execute {
        let (this, context) = bound.value
        this.connectionClosed(context: context)
      }
    }
    context.fireChannelRead(data)
  }

  private func connectionClosed(context: ChannelHandlerContext) {
    open -= 1
    if readWaiting && open < limit {
      readWaiting = false
      context.read()
    }
  }

  /// How many connections to allow: the descriptor soft limit (`ulimit -n`) less a reserve for
  /// the event loops, the state file and the accept batch that may overshoot the count.
  static func defaultLimit() -> Int {
    var limits = rlimit()
    guard getrlimit(openFilesResource, &limits) == 0 else { return 1000 }
    let soft = Int(min(limits.rlim_cur, 1 << 20))  // RLIM_INFINITY is the largest value: capped too
    return soft > 128 ? soft - 64 : max(4, soft / 2)
  }
}

/// Every open connection and since when it has been waiting for a request. When the server is
/// at its connection limit, the one idle longest is closed to make room, so a flood of idle or
/// half-sent connections cannot keep real clients waiting until the idle timeout.
final class ConnectionRegistry: Sendable {
  final class Entry: Sendable {
    let channel: Channel
    private let since = Mutex<NIODeadline?>(nil)

    init(channel: Channel) { self.channel = channel }

    /// nil while a request is being answered.
    var idleSince: NIODeadline? {
      get { since.withLock { $0 } }
      set { since.withLock { $0 = newValue } }
    }
  }

  private let entries = Mutex<[ObjectIdentifier: Entry]>([:])

  func add(_ channel: Channel) -> Entry {
    let entry = Entry(channel: channel)
    entries.withLock { $0[ObjectIdentifier(entry)] = entry }
    return entry
  }

  func remove(_ entry: Entry) {
    _ = entries.withLock { $0.removeValue(forKey: ObjectIdentifier(entry)) }
  }

  /// Closes the connection idle longest; false when every connection is busy.
  @discardableResult
  func closeOldestIdle() -> Bool {
    let oldest = entries.withLock { entries -> Entry? in
      var best: (entry: Entry, since: NIODeadline)?
      for entry in entries.values {
        guard let since = entry.idleSince else { continue }
        if since < (best?.since ?? .distantFuture) { best = (entry, since) }
      }
      if let best { entries.removeValue(forKey: ObjectIdentifier(best.entry)) }
      return best?.entry
    }
    oldest?.channel.close(promise: nil)
    return oldest != nil
  }
}
