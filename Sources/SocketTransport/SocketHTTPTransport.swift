import AuthCore
import Essentials
import Synchronization

/// `HTTPTransport` for plain `http://` on a thread that may block (`BlockingThread`): a script's
/// steps. The request is written and its answer read with plain socket calls and `poll`, on the
/// thread that awaits it. What NIO's event loop costs on top (a channel pipeline, promises, a
/// timer and a hop through the loop per request) was most of a step's client time against an
/// emulator on loopback.
///
/// It behaves as `NIOHTTPTransport` does: keep-alive connections reused (parked at most
/// `idleTimeout`), a whole-request deadline, cancellation, a body-size cap, the same failures;
/// a request whose reused connection closes before a byte of the answer goes again, once, on a
/// fresh connection.
package final class SocketHTTPTransport: HTTPTransport {
  struct Key: Hashable, Sendable {
    let host: String
    let port: Int
  }

  /// Where a URL's requests go and the request target written for it, worked out once per URL
  /// (FoundationEssentials' `URL` parses its string again on every component read); nil for a
  /// URL this transport cannot send to.
  struct Destination: Sendable {
    let key: Key
    let target: String

    init?(_ url: URL) {
      guard url.hasScheme("http"), let host = url.host, !host.isEmpty else { return nil }
      key = Key(host: host, port: url.port ?? 80)
      target = url.requestTarget
    }
  }

  private static let destinations = Memo<URL, Destination?>()

  package let maxResponseBytes: Int
  private let idleNanoseconds: UInt64
  /// Wakers not lent to a request (a script's thread needs one; tests send from several).
  private let wakers = Mutex<[Waker]>([])
  private let idle = Mutex<[Key: [SocketConnection]]>([:])
  private let opened = Atomic<Int>(0)

  package init(maxResponseBytes: Int = 4 << 20, idleTimeout: Double = 2) {
    self.maxResponseBytes = maxResponseBytes
    self.idleNanoseconds = UInt64(idleTimeout * 1e9)
  }

  deinit {
    idle.withLock { pool in
      for var connection in pool.values.joined() { connection.close() }
    }
  }

  /// Connections opened so far; requests on a reused connection do not add to it.
  package var connectionsOpened: Int { opened.load(ordering: .relaxed) }

  package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    if let name = request.unsendableHeader { throw TransportFailure.unsendableHeader(name) }
    guard let destination = Self.destinations.value(for: request.url, { Destination(request.url) }) else {
      throw TransportFailure.other("SocketHTTPTransport only speaks plain http://")
    }
    if Task.isCancelled { throw TransportFailure.cancelled }
    guard let waker = wakers.withLock({ $0.popLast() }) ?? Waker() else {
      throw TransportFailure.other("no pipe for the request (the limit on open files)")
    }
    defer {
      waker.reset()
      wakers.withLock { $0.append(waker) }
    }
    let key = destination.key
    let deadline = Deadline(secondsFromNow: request.deadlineSeconds)
    // The handler runs only while the operation does: once this returns, no late wake can reach
    // the waker the next request borrows.
    return try await withTaskCancellationHandler {
      try perform(request, key: key, target: destination.target, deadline: deadline, waker: waker)
    } onCancel: {
      waker.wake()
    }
  }

  private func perform(_ request: HTTPRequest, key: Key, target: String, deadline: Deadline, waker: Waker)
    throws(TransportFailure) -> HTTPResponse
  {
    let bytes = RequestBytes.make(request, target: target, host: key.host, port: key.port)
    let isHead = request.method == "HEAD"
    if let connection = take(key) {
      do {
        return try exchange(bytes, isHead: isHead, key: key, on: connection, deadline: deadline, waker: waker)
      } catch {
        // Nothing of it was answered: once more on a fresh connection, within the same deadline.
        guard case .beforeAnswer = error else { throw Self.failure(error) }
      }
    }
    let connection = try SocketConnection.open(host: key.host, port: key.port, deadline: deadline, waker: waker)
    opened.add(1, ordering: .relaxed)
    do {
      return try exchange(bytes, isHead: isHead, key: key, on: connection, deadline: deadline, waker: waker)
    } catch {
      throw Self.failure(error)
    }
  }

  private static func failure(_ error: ResponseReader.Failure) -> TransportFailure {
    switch error {
    case .beforeAnswer(let detail): .connectionLost(detail)
    case .failed(let failure): failure
    }
  }

  /// One request on one connection, which is parked for the next when the server keeps it open
  /// and closed otherwise.
  private func exchange(
    _ bytes: [UInt8], isHead: Bool, key: Key, on connection: SocketConnection, deadline: Deadline, waker: Waker
  ) throws(ResponseReader.Failure) -> HTTPResponse {
    var connection = connection
    do throws(ResponseReader.Failure) {
      do {
        try connection.sendAll(bytes, deadline: deadline, waker: waker)
      } catch {
        throw ResponseReader.Failure(error, answered: false)
      }
      var reader = ResponseReader(connection: connection, deadline: deadline, waker: waker, maxBytes: maxResponseBytes)
      let answer = try reader.read(isHead: isHead)
      if answer.keepAlive { park(connection, key) } else { connection.close() }
      return answer.response
    } catch {
      connection.close()
      throw error
    }
  }

  /// An idle connection to `key` that can carry a request: parked less than `idleTimeout` ago,
  /// and quiet since (no end of input, no stray bytes). Others are closed.
  private func take(_ key: Key) -> SocketConnection? {
    let now = Deadline.now()
    while var connection = idle.withLock({ $0[key]?.popLast() }) {
      if now &- connection.idleSince < idleNanoseconds, connection.isQuiet { return connection }
      connection.close()
    }
    return nil
  }

  private func park(_ connection: SocketConnection, _ key: Key) {
    var connection = connection
    connection.idleSince = Deadline.now()
    idle.withLock { $0[key, default: []].append(connection) }
  }
}

/// A request as HTTP/1.1 bytes: the request line (`target`: the URL's percent-encoded path and query), a
/// `Host` header, the request's headers (checked before: `HTTPRequest.unsendableHeader`), and a
/// `Content-Length` whenever there is a body or the method expects one.
enum RequestBytes {
  static func make(_ request: HTTPRequest, target: String, host: String, port: Int) -> [UInt8] {
    let body = request.body ?? []
    let sendsLength = !body.isEmpty || request.method == "POST" || request.method == "PUT" || request.method == "PATCH"
    var size = request.method.utf8.count + target.utf8.count + host.utf8.count + body.count + 64
    for header in request.headers { size += header.name.utf8.count + header.value.utf8.count + 4 }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(size)
    bytes += request.method.utf8
    bytes.append(UInt8(ascii: " "))
    bytes += target.utf8
    bytes += " HTTP/1.1\r\nHost: ".utf8
    bytes += host.utf8
    if port != 80 {
      bytes.append(UInt8(ascii: ":"))
      bytes += String(port).utf8
    }
    bytes += "\r\n".utf8
    for header in request.headers {
      if sendsLength, header.name.equalsIgnoringASCIICase("content-length") { continue }
      bytes += header.name.utf8
      bytes += ": ".utf8
      bytes += header.value.utf8
      bytes += "\r\n".utf8
    }
    if sendsLength {
      bytes += "Content-Length: ".utf8
      bytes += String(body.count).utf8
      bytes += "\r\n".utf8
    }
    bytes += "\r\n".utf8
    bytes += body
    return bytes
  }
}

/// Plain `http://` through `SocketHTTPTransport` on a thread that may block (a script's own),
/// through `elsewhere` (the event-loop transport) on any other: parallel work, the shell, one-shot commands.
package struct ThreadRoutingTransport: HTTPTransport {
  let blocking: SocketHTTPTransport
  let elsewhere: any HTTPTransport

  package init(blocking: SocketHTTPTransport = SocketHTTPTransport(), elsewhere: any HTTPTransport) {
    self.blocking = blocking
    self.elsewhere = elsewhere
  }

  package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    BlockingThread.isCurrent ? try await blocking.send(request) : try await elsewhere.send(request)
  }
}
