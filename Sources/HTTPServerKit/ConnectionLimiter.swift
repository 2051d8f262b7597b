import NIOCore

#if canImport(Glibc)
  import Glibc
#endif

/// On the listening channel: counts open connections and stops accepting while `limit` are open,
/// so the process never runs out of descriptors (new clients wait in the listen backlog and are
/// accepted as soon as a connection closes). Everything runs on the listener's event loop.
final class ConnectionLimiter: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = Channel
  typealias InboundOut = Channel
  typealias OutboundIn = Channel

  private let limit: Int
  private var open = 0
  private var readWaiting = false

  init(limit: Int) { self.limit = max(1, limit) }

  func read(context: ChannelHandlerContext) {
    if open >= limit {
      readWaiting = true
    } else {
      context.read()
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let child = unwrapInboundIn(data)
    open += 1
    let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    child.closeFuture.hop(to: context.eventLoop).whenComplete { _ in
      let (this, context) = bound.value
      this.connectionClosed(context: context)
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
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 1000 }
    let soft = Int(min(limits.rlim_cur, 1 << 20))  // RLIM_INFINITY is the largest value: capped too
    return soft > 128 ? soft - 64 : max(4, soft / 2)
  }
}
