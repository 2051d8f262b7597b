import AuthCore
import Essentials
import NIOCore
import NIOHTTP1
import NIOPosix

/// `HTTPTransport` for plain `http://` (emulators on loopback) over SwiftNIO, wherever requests
/// may run in parallel (the shell, one-shot commands, bulk changes; a script's own steps go
/// through `SocketHTTPTransport` on its thread): keep-alive
/// connections reused across requests (as every HTTP client library does), a whole-request
/// deadline, cancellation, a body-size cap. A failed, timed-out or cancelled request closes its
/// connection. One retry only, as libcurl and browsers do: a request whose reused keep-alive
/// connection closes before a byte of the answer (the server closed it while idle, or to make
/// room) goes again, once, on a fresh connection. TLS goes through `CurlTransport`.
package struct NIOHTTPTransport: HTTPTransport {
  package let maxResponseBytes: Int
  private let group: any EventLoopGroup
  private let pool: ConnectionPool

  package init(
    maxResponseBytes: Int = 4 << 20, idleTimeout: TimeAmount = .seconds(2),
    group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
  ) {
    self.maxResponseBytes = maxResponseBytes
    self.group = group
    self.pool = ConnectionPool(idleTimeout: idleTimeout)
  }

  /// Connections opened so far; requests on a reused connection do not add to it.
  package var connectionsOpened: Int { pool.connectionsOpened }

  /// Keep-alive connections parked for the next request.
  package var idleConnections: Int { pool.idleCount }

  package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    if let name = request.unsendableHeader { throw TransportFailure.unsendableHeader(name) }
    guard request.url.hasScheme("http"), let host = request.url.host, !host.isEmpty else {
      throw TransportFailure.other("NIOHTTPTransport only speaks plain http://")
    }
    let key = ConnectionPool.Key(host: host, port: request.url.port ?? 80)
    let budget = TimeAmount.milliseconds(Int64(request.deadlineSeconds * 1000))
    let deadline = NIODeadline.now() + budget
    if let idle = pool.take(key) {
      do {
        return try await exchange(request, key: key, on: idle, deadline: deadline)
      } catch is ClosedBeforeAnswer {
        // Nothing of it was answered: once more on a fresh connection, within the same deadline.
      }
    }
    if Task.isCancelled { throw TransportFailure.cancelled }
    let remaining = deadline - NIODeadline.now()
    guard remaining > .zero else { throw TransportFailure.timedOut }
    let channel = try await connect(key, timeout: remaining)
    do {
      return try await exchange(request, key: key, on: channel, deadline: deadline)
    } catch let closed as ClosedBeforeAnswer {
      throw TransportFailure.connectionLost(closed.detail)
    }
  }

  /// One request on one connection, which goes back to the pool when the server keeps it open.
  private func exchange(_ request: HTTPRequest, key: ConnectionPool.Key, on channel: any Channel, deadline: NIODeadline)
    async throws -> HTTPResponse
  {
    let promise = channel.eventLoop.makePromise(of: Answer.self)
    let timer = channel.eventLoop.scheduleTask(deadline: deadline) { promise.fail(TransportFailure.timedOut) }
    channel.writeAndFlush(Exchange(parts: Self.parts(request, key), promise: promise)).whenFailure { error in
      promise.fail(ClosedBeforeAnswer(detail: String(describing: error)))
    }
    do {
      let answer = try await withTaskCancellationHandler {
        try await promise.futureResult.get()
      } onCancel: {
        promise.fail(TransportFailure.cancelled)
      }
      timer.cancel()
      if answer.keepAlive { pool.put(channel, for: key) } else { channel.close(promise: nil) }
      return answer.response
    } catch {
      timer.cancel()
      channel.close(promise: nil)
      throw error
    }
  }

  private func connect(_ key: ConnectionPool.Key, timeout: TimeAmount) async throws -> any Channel {
    let limit = maxResponseBytes
    // `any()` is the loop this task runs on when it runs on one of the group's: its connections
    // then answer on the thread that awaits them.
    let bootstrap = ClientBootstrap(group: group.any())
      .channelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
      .connectTimeout(timeout)
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          // The request goes out as bytes written by RequestWriter (this transport frames its
          // requests and checks their headers itself; NIO's encoder did both again, about 17,000
          // instructions a script step); NIO's decoder reads the answer.
          try channel.pipeline.syncOperations.addHandler(RequestWriter())
          try channel.pipeline.syncOperations.addHandler(byteToMessageHandler(HTTPResponseDecoder()))
          try channel.pipeline.syncOperations.addHandler(ExchangeHandler(maxBytes: limit))
        }
      }
    do {
      // An IP literal skips the resolver (and its thread hop); names go through getaddrinfo.
      let channel: any Channel
      if let address = try? SocketAddress(ipAddress: key.host, port: key.port) {
        channel = try await bootstrap.connect(to: address).get()
      } else {
        channel = try await bootstrap.connect(host: key.host, port: key.port).get()
      }
      pool.opened(channel, for: key)
      return channel
    } catch {
      throw Self.connectFailure(error)
    }
  }

  /// Why a connect failed, as far as the socket says: refused, a name that does not resolve, or
  /// another cause (no route, network down).
  package static func connectFailure(_ error: any Error) -> TransportFailure {
    if case ChannelError.connectTimeout = error { return .timedOut }
    let detail = String(describing: error)
    if let io = error as? IOError {
      // The system's words for the errno ("No route to host"), not NIO's description of the call.
      return io.errnoCode == ECONNREFUSED ? .refused(detail) : .unreachable(String(cString: strerror(io.errnoCode)))
    }
    if let failure = error as? NIOConnectionError {
      if failure.connectionErrors.isEmpty, failure.dnsAError != nil || failure.dnsAAAAError != nil {
        return .hostNotFound(detail)
      }
      let refused = failure.connectionErrors.allSatisfy { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
      if !failure.connectionErrors.isEmpty, refused { return .refused(detail) }
      if failure.connectionErrors.contains(where: {
        if case ChannelError.connectTimeout = $0.error { true } else { false }
      }) {
        return .timedOut
      }
      if let io = failure.connectionErrors.lazy.compactMap({ $0.error as? IOError }).first {
        return .unreachable(String(cString: strerror(io.errnoCode)))
      }
    }
    return .unreachable(detail)
  }

  static func parts(_ request: HTTPRequest, _ key: ConnectionPool.Key) -> [HTTPClientRequestPart] {
    let target = request.url.requestTarget
    var headers = HTTPHeaders()
    headers.add(name: "Host", value: key.port == 80 ? key.host : "\(key.host):\(key.port)")
    for header in request.headers { headers.add(name: header.name, value: header.value) }
    let body = request.body ?? []
    if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method) {
      headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
    }
    let head = HTTPRequestHead(
      version: .http1_1, method: HTTPMethod(rawValue: request.method), uri: target, headers: headers)
    var parts: [HTTPClientRequestPart] = [.head(head)]
    if !body.isEmpty { parts.append(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
    parts.append(.end(nil))
    return parts
  }
}

/// Plain `http://` through NIO, everything else (TLS) through `fallback`.
package struct SchemeRoutingTransport: HTTPTransport {
  let plain: any HTTPTransport
  let fallback: any HTTPTransport

  package init(plain: any HTTPTransport = NIOHTTPTransport(), fallback: any HTTPTransport) {
    self.plain = plain
    self.fallback = fallback
  }

  package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    request.url.hasScheme("http") ? try await plain.send(request) : try await fallback.send(request)
  }
}

/// NIO's handler around `decoder`, built where the conformance `Decoder: ByteToMessageDecoder` is
/// passed in, never specialised. Written out as `ByteToMessageHandler(HTTPResponseDecoder())`,
/// the handler's type is made from its mangled name the first time, and the Swift runtime then
/// looks the conformance up by scanning every conformance record; two event-loop threads opening
/// their first connections at once (parallel lookups) crashed the 6.3 runtime in that scan (a null
/// metadata pointer in `swift_conformsToProtocolMaybeInstantiateSuperclasses`), seen under load.
@_semantics("optimize.sil.specialize.generic.never")
@inline(never)
func byteToMessageHandler<Decoder: ByteToMessageDecoder>(_ decoder: Decoder) -> ByteToMessageHandler<Decoder> {
  ByteToMessageHandler(decoder)
}
