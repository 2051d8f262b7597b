import AuthCore
import NIOCore
import NIOHTTP1

/// One request written to a connection and the promise its answer completes.
struct Exchange: Sendable {
  let parts: [HTTPClientRequestPart]
  let promise: EventLoopPromise<Answer>
}

/// The connection ended before a single byte of the answer arrived. On a reused keep-alive
/// connection that is what a server closing it while it sat idle looks like, and the request may go
/// again on a fresh connection; otherwise it is `TransportFailure.connectionLost`.
struct ClosedBeforeAnswer: Error {
  let detail: String
}

/// A complete answer, and whether the server lets the connection serve another request.
struct Answer: Sendable {
  let response: HTTPResponse
  let keepAlive: Bool
}

/// Writes one `Exchange` at a time and collects its answer; fails it on an early close, an
/// error, or a body over `maxBytes` (then closes the connection).
final class ExchangeHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPClientResponsePart
  typealias OutboundIn = Exchange
  typealias OutboundOut = HTTPClientRequestPart

  private let maxBytes: Int
  private var promise: EventLoopPromise<Answer>?
  private var head: HTTPResponseHead?
  private var body: [UInt8] = []
  /// Whether any part of the current answer has arrived.
  private var received = false

  init(maxBytes: Int) {
    self.maxBytes = maxBytes
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise writePromise: EventLoopPromise<Void>?) {
    let exchange = unwrapOutboundIn(data)
    guard promise == nil else {
      // The pool hands a connection to one request at a time; anything else is a bug, not a race to lose.
      exchange.promise.fail(TransportFailure.other("connection already busy"))
      writePromise?.fail(ChannelError.inappropriateOperationForState)
      return
    }
    promise = exchange.promise
    head = nil
    body = []
    received = false
    for (index, part) in exchange.parts.enumerated() {
      context.write(wrapOutboundOut(part), promise: index == exchange.parts.count - 1 ? writePromise : nil)
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard promise != nil else {
      // Bytes nobody asked for (on an idle connection, or after a timeout): the connection's
      // framing can no longer be trusted.
      context.close(promise: nil)
      return
    }
    received = true
    switch unwrapInboundIn(data) {
    case .head(let responseHead):
      head = responseHead
    case .body(var buffer):
      guard body.count + buffer.readableBytes <= maxBytes else {
        fail(.tooLarge(bytes: maxBytes))
        context.close(promise: nil)
        return
      }
      body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
    case .end:
      guard let head else {
        fail(.connectionLost("no response head"))
        context.close(promise: nil)
        return
      }
      let response = HTTPResponse(
        status: Int(head.status.code), headers: head.headers.map { ($0.name, $0.value) }, body: body)
      let pending = promise
      promise = nil
      self.head = nil
      body = []
      pending?.succeed(Answer(response: response, keepAlive: head.isKeepAlive))
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    failEarly("the connection closed before a complete answer")
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    // A socket error (a reset, a broken pipe) may end a connection before any answer; anything
    // else (the HTTP decoder refusing what arrived) means bytes came, so the request was read.
    if error is IOError || error is ChannelError {
      failEarly(String(describing: error))
    } else {
      fail(.connectionLost(String(describing: error)))
    }
    context.close(promise: nil)
  }

  /// The connection ended: before any answer (the caller may try a fresh connection) or in the middle of one.
  private func failEarly(_ detail: String) {
    if received {
      fail(.connectionLost(detail))
    } else {
      promise?.fail(ClosedBeforeAnswer(detail: detail))
      promise = nil
    }
  }

  private func fail(_ failure: TransportFailure) {
    promise?.fail(failure)
    promise = nil
  }
}
