import AuthCore
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// `HTTPTransport` for plain `http://` (emulators on loopback) over SwiftNIO: one connection per
/// request, a whole-request deadline, cancellation, a body-size cap. About a third of
/// FoundationNetworking's per-request cost on Linux. TLS stays with `URLSessionTransport`.
public struct NIOHTTPTransport: HTTPTransport {
  public let maxResponseBytes: Int
  private let group: any EventLoopGroup

  public init(maxResponseBytes: Int = 4 << 20, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
    self.maxResponseBytes = maxResponseBytes
    self.group = group
  }

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    guard request.url.scheme?.lowercased() == "http", let host = request.url.host, !host.isEmpty else {
      throw TransportFailure.other("NIOHTTPTransport only speaks plain http://")
    }
    let port = request.url.port ?? 80
    let deadline = max(1, request.timeout)
    let eventLoop = group.next()
    let promise = eventLoop.makePromise(of: HTTPResponse.self)
    let limit = maxResponseBytes
    let bootstrap = ClientBootstrap(group: eventLoop)
      .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
      .connectTimeout(.milliseconds(Int64(deadline * 1000)))
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHTTPClientHandlers()
          try channel.pipeline.syncOperations.addHandler(ResponseCollector(promise: promise, maxBytes: limit))
        }
      }
    let timeout = eventLoop.scheduleTask(in: .milliseconds(Int64(deadline * 1000))) {
      promise.fail(TransportFailure.timedOut)
    }
    defer { timeout.cancel() }
    let channel: any Channel
    do {
      channel = try await bootstrap.connect(host: host, port: port).get()
    } catch {
      promise.fail(TransportFailure.unreachable(String(describing: error)))
      throw Self.connectFailure(error)
    }
    promise.futureResult.whenComplete { _ in channel.close(promise: nil) }
    let parts = Self.parts(request, host: host, port: port)
    for part in parts.dropLast() { channel.write(part, promise: nil) }
    if let last = parts.last {
      channel.writeAndFlush(last).whenFailure { error in
        promise.fail(TransportFailure.connectionLost(String(describing: error)))
      }
    }
    return try await withTaskCancellationHandler {
      try await promise.futureResult.get()
    } onCancel: {
      promise.fail(TransportFailure.cancelled)
    }
  }

  static func connectFailure(_ error: any Error) -> TransportFailure {
    if case ChannelError.connectTimeout = error { return .timedOut }
    return .unreachable(String(describing: error))
  }

  static func parts(_ request: HTTPRequest, host: String, port: Int) -> [HTTPClientRequestPart] {
    let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
    var target = components?.percentEncodedPath ?? "/"
    if target.isEmpty { target = "/" }
    if let query = components?.percentEncodedQuery { target += "?" + query }
    var headers = HTTPHeaders()
    headers.add(name: "Host", value: port == 80 ? host : "\(host):\(port)")
    for header in request.headers { headers.add(name: header.name, value: header.value) }
    headers.replaceOrAdd(name: "Connection", value: "close")
    let body = request.body ?? []
    if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method) {
      headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
    }
    let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.method), uri: target, headers: headers)
    var parts: [HTTPClientRequestPart] = [.head(head)]
    if !body.isEmpty { parts.append(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
    parts.append(.end(nil))
    return parts
  }
}

/// Collects one response; fails on early close, errors, or an oversized body.
private final class ResponseCollector: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPClientResponsePart

  private let promise: EventLoopPromise<HTTPResponse>
  private let maxBytes: Int
  private var head: HTTPResponseHead?
  private var body: [UInt8] = []

  init(promise: EventLoopPromise<HTTPResponse>, maxBytes: Int) {
    self.promise = promise
    self.maxBytes = maxBytes
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let responseHead):
      head = responseHead
    case .body(var buffer):
      if body.count + buffer.readableBytes > maxBytes {
        promise.fail(TransportFailure.connectionLost("response body over \(maxBytes) bytes"))
        context.close(promise: nil)
        return
      }
      body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
    case .end:
      guard let head else {
        promise.fail(TransportFailure.connectionLost("no response head"))
        return
      }
      promise.succeed(HTTPResponse(status: Int(head.status.code), headers: head.headers.map { ($0.name, $0.value) }, body: body))
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    promise.fail(TransportFailure.connectionLost("the connection closed before a complete answer"))
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    promise.fail(TransportFailure.connectionLost(String(describing: error)))
    context.close(promise: nil)
  }
}

/// Plain `http://` through NIO, everything else (TLS) through `fallback`.
public struct SchemeRoutingTransport: HTTPTransport {
  let plain: any HTTPTransport
  let fallback: any HTTPTransport

  public init(plain: any HTTPTransport = NIOHTTPTransport(), fallback: any HTTPTransport) {
    self.plain = plain
    self.fallback = fallback
  }

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    request.url.scheme?.lowercased() == "http" ? try await plain.send(request) : try await fallback.send(request)
  }
}
