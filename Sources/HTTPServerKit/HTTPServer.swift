import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

package typealias ServerHandler = @Sendable (ServerRequest) async -> ServerResponse

/// A small HTTP/1.1 server on SwiftNIO: it reads whole requests (bodies up to `maxBodyBytes`),
/// hands them to an async handler, and writes the answer. Keep-alive is honoured.
///
/// As a long-running service it protects itself: a connection that has not sent a complete
/// request within `idleTimeout` of connecting (or of its last answer) is closed; at most
/// `maxConnections` are open at once (by default below the descriptor limit), and when accepting
/// fails anyway (EMFILE, ENFILE) it waits a moment instead of retrying in a busy loop.
package final class HTTPServer: Sendable {
  package let host: String
  private let requestedPort: Int
  private let maxBodyBytes: Int
  private let idleTimeout: TimeAmount
  private let maxConnections: Int
  private let handler: ServerHandler
  private let group: MultiThreadedEventLoopGroup
  private let channelBox = ChannelBox()
  private let state = ServerState()
  private let connections = ConnectionRegistry()

  package init(
    host: String = "127.0.0.1", port: Int = 0, maxBodyBytes: Int = 1 << 20, threads: Int = System.coreCount,
    idleTimeoutSeconds: Int = 30, maxConnections: Int? = nil, handler: @escaping ServerHandler
  ) {
    self.host = host
    self.requestedPort = port
    self.maxBodyBytes = maxBodyBytes
    self.idleTimeout = .seconds(Int64(max(1, idleTimeoutSeconds)))
    self.maxConnections = maxConnections ?? ConnectionLimiter.defaultLimit()
    self.handler = handler
    self.group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, threads))
  }

  /// Binds and starts serving; returns the bound port (useful with port 0).
  @discardableResult
  package func start() async throws -> Int {
    let handler = self.handler
    let limit = maxBodyBytes
    let state = self.state
    let idleTimeout = self.idleTimeout
    let maxConnections = self.maxConnections
    let connections = self.connections
    let bootstrap = ServerBootstrap(group: group)
      .serverChannelOption(ChannelOptions.backlog, value: 256)
      .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
      .serverChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          // Out of descriptors: retry accepting after a pause, not in a loop that spins a core.
          try channel.pipeline.syncOperations.addHandler(
            AcceptBackoffHandler(shouldForwardIOErrorCaught: false) { _ in .milliseconds(250) })
          try channel.pipeline.syncOperations.addHandler(
            ConnectionLimiter(limit: maxConnections, registry: connections, state: state))
        }
      }
      .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
          try channel.pipeline.syncOperations.addHandler(
            RequestHandler(
              handler: handler, maxBodyBytes: limit, idleTimeout: idleTimeout, state: state, connections: connections))
        }
      }
    let channel = try await bootstrap.bind(host: host, port: requestedPort).get()
    channelBox.set(channel)
    return channel.localAddress?.port ?? requestedPort
  }

  package var port: Int? { channelBox.get()?.localAddress?.port }

  /// Stops accepting, closes the listener and the event loops.
  package func shutdown() async {
    guard state.stop() else { return }  // a second call (a signal during shutdown) has nothing to do
    if let channel = channelBox.get() { try? await channel.close() }
    try? await group.shutdownGracefully()
  }

  /// Blocks until the listening channel closes.
  package func waitUntilClosed() async {
    guard let channel = channelBox.get() else { return }
    try? await channel.closeFuture.get()
  }
}

/// Whether the server is stopping: answers that finish afterwards are dropped instead of being
/// scheduled on event loops that are shutting down.
final class ServerState: Sendable {
  private let stopped = Mutex(false)
  /// Marks the server stopped; true for the first call only.
  func stop() -> Bool {
    stopped.withLock { stopped in
      defer { stopped = true }
      return !stopped
    }
  }
  var isStopped: Bool { stopped.withLock { $0 } }
}

private final class ChannelBox: Sendable {
  private let channel = Mutex<Channel?>(nil)
  func set(_ value: Channel) { channel.withLock { $0 = value } }
  func get() -> Channel? { channel.withLock { $0 } }
}

private final class RequestHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private let handler: ServerHandler
  private let maxBodyBytes: Int
  private let idleTimeout: TimeAmount
  private let state: ServerState
  private var head: HTTPRequestHead?
  private var body: [UInt8] = []
  private var tooLarge = false
  /// Closes the connection when no complete request arrives in time. At most one is pending; it
  /// is not cancelled per request but checks `idleSince` when it fires (no timer churn per request).
  private var idleTimer: Scheduled<Void>?
  /// When the connection started waiting for a request; nil while one is being answered.
  private var idleSince: NIODeadline?
  private let connections: ConnectionRegistry
  private var registration: ConnectionRegistry.Entry?

  init(
    handler: @escaping ServerHandler, maxBodyBytes: Int, idleTimeout: TimeAmount, state: ServerState,
    connections: ConnectionRegistry
  ) {
    self.handler = handler
    self.maxBodyBytes = maxBodyBytes
    self.idleTimeout = idleTimeout
    self.state = state
    self.connections = connections
  }

  func handlerAdded(context: ChannelHandlerContext) {
    registration = connections.add(context.channel)
    if context.channel.isActive { markIdle(context: context) }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    if let registration { connections.remove(registration) }
    registration = nil
    idleTimer?.cancel()
    idleTimer = nil
  }

  func channelActive(context: ChannelHandlerContext) {
    markIdle(context: context)
    context.fireChannelActive()
  }

  func channelInactive(context: ChannelHandlerContext) {
    idleTimer?.cancel()
    idleTimer = nil
    if let registration { connections.remove(registration) }
    registration = nil
    context.fireChannelInactive()
  }

  /// The deadline runs from when the connection became idle, not from the last byte: a client
  /// sending its head a byte at a time is closed as well.
  private func markIdle(context: ChannelHandlerContext) {
    let now = NIODeadline.now()
    idleSince = now
    registration?.idleSince = now
    if idleTimer == nil { scheduleIdleCheck(at: now + idleTimeout, context: context) }
  }

  private func markBusy() {
    idleSince = nil
    registration?.idleSince = nil
  }

  private func scheduleIdleCheck(at deadline: NIODeadline, context: ChannelHandlerContext) {
    let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    idleTimer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
      let (this, context) = bound.value
      this.idleTimer = nil
      guard let since = this.idleSince else { return }  // busy: markIdle schedules the next check
      let expiry = since + this.idleTimeout
      if NIODeadline.now() >= expiry {
        context.close(promise: nil)
      } else {
        this.scheduleIdleCheck(at: expiry, context: context)
      }
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let requestHead):
      head = requestHead
      body = []
      tooLarge = false
    case .body(var buffer):
      guard !tooLarge else { return }
      if body.count + buffer.readableBytes > maxBodyBytes {
        tooLarge = true
        body = []
      } else if let bytes = buffer.readBytes(length: buffer.readableBytes) {
        body.append(contentsOf: bytes)
      }
    case .end:
      guard let requestHead = head else { return }
      head = nil
      markBusy()
      let request = ServerRequest(
        method: requestHead.method.rawValue, uri: requestHead.uri,
        headers: requestHead.headers.map { ($0.name, $0.value) }, body: body, bodyTooLarge: tooLarge)
      body = []
      let keepAlive = requestHead.isKeepAlive
      let version = requestHead.version
      let handler = self.handler
      let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
      let eventLoop = context.eventLoop
      let state = self.state
      Task {
        let response = await handler(request)
        guard !state.isStopped else { return }
        eventLoop.execute {
          let (this, context) = loopBound.value
          this.write(response, keepAlive: keepAlive, version: version, context: context)
        }
      }
    }
  }

  private func write(_ response: ServerResponse, keepAlive: Bool, version: HTTPVersion, context: ChannelHandlerContext)
  {
    if response.drop {
      context.close(promise: nil)
      return
    }
    var headers = HTTPHeaders()
    for (name, value) in response.headers { headers.add(name: name, value: value) }
    headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
    if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
    let head = HTTPResponseHead(
      version: version, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    if !response.body.isEmpty {
      var buffer = context.channel.allocator.buffer(capacity: response.body.count)
      buffer.writeBytes(response.body)
      context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
    }
    let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
    if keepAlive && context.channel.isActive { markIdle(context: context) }
    if !keepAlive {
      let channel = context.channel
      done.whenComplete { _ in channel.close(promise: nil) }
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: Error) {
    context.close(promise: nil)
  }
}
