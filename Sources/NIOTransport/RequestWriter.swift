import NIOCore
import NIOHTTP1

/// Writes a request's parts as HTTP/1.1 bytes, one buffer a request, in place of NIO's
/// `HTTPRequestEncoder`. That encoder frames any request a program may give it (it looks through
/// the headers for framing, may switch to chunked encoding, writes each part as it comes); this
/// transport frames its requests itself, so writing them is all that is left:
/// - `NIOHTTPTransport.parts` sets `Content-Length` whenever there is a body, and never asks for chunks;
/// - every header was checked before the request reached the transport (`HTTPRequest.unsendableHeader`);
/// - the target is the URL's percent-encoded path and query, which hold no space or control character.
///
/// It sits before the response decoder (`byteToMessageHandler(HTTPResponseDecoder())`), which
/// still sees each part go out and so knows what the answer to a `HEAD` looks like.
final class RequestWriter: ChannelOutboundHandler, RemovableChannelHandler {
  typealias OutboundIn = HTTPClientRequestPart
  typealias OutboundOut = ByteBuffer

  /// The request written so far: its head, then its body; sent when its end comes.
  private var pending: ByteBuffer?

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(let head):
      pending = context.channel.allocator.buffer(bytes: Self.bytes(of: head))
      promise?.succeed(())
    case .body(.byteBuffer(var body)):
      pending?.writeBuffer(&body)
      promise?.succeed(())
    case .body(.fileRegion):
      promise?.fail(ChannelError.operationUnsupported)
    case .end:
      guard let request = pending else {
        promise?.fail(ChannelError.inappropriateOperationForState)
        return
      }
      pending = nil
      context.write(wrapOutboundOut(request), promise: promise)
    }
  }

  /// The head's length in bytes, so its bytes are allocated once.
  static func size(of head: HTTPRequestHead) -> Int {
    var size = head.method.rawValue.utf8.count + head.uri.utf8.count + 14
    for (name, value) in head.headers { size += name.utf8.count + value.utf8.count + 4 }
    return size
  }

  /// The head's bytes, gathered in an array to be copied into a buffer once: each write to a
  /// `ByteBuffer` checks its capacity and its exclusive access, and a head is a dozen strings.
  static func bytes(of head: HTTPRequestHead) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(size(of: head))
    bytes += head.method.rawValue.utf8
    bytes.append(UInt8(ascii: " "))
    bytes += head.uri.utf8
    bytes += " HTTP/1.1\r\n".utf8
    for (name, value) in head.headers {
      bytes += name.utf8
      bytes += ": ".utf8
      bytes += value.utf8
      bytes += "\r\n".utf8
    }
    bytes += "\r\n".utf8
    return bytes
  }
}
