import AuthCore
import AuthTestSupport
import Foundation
import SocketTransport
import Testing

/// How `SocketHTTPTransport` reads answers off the wire, against a raw server writing exact bytes:
/// every way HTTP/1.1 frames a body, and the answers it must refuse.
@Suite struct ResponseFramingTests {
  private func get(_ answer: String, close: Bool = true, method: String = "GET", maxBytes: Int = 4 << 20) async throws
    -> HTTPResponse
  {
    let server = try RawServer(answer: answer, close: close)
    let transport = SocketHTTPTransport(maxResponseBytes: maxBytes)
    return try await ThreadTaskExecutor.onOwnThread {
      try await transport.send(
        HTTPRequest(method: method, url: URL(string: "http://127.0.0.1:\(server.port)/x")!, timeout: 5))
    }
  }

  /// Expects `body` to fail with a `TransportFailure` that `kind` accepts.
  private func expectFailure(
    _ kind: (TransportFailure) -> Bool, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> HTTPResponse
  ) async {
    do {
      let response = try await body()
      Issue.record("expected a failure, got HTTP \(response.status)", sourceLocation: sourceLocation)
    } catch {
      #expect((error as? TransportFailure).map(kind) == true, "\(error)", sourceLocation: sourceLocation)
    }
  }

  @Test func aContentLengthBody() async throws {
    let response = try await get("HTTP/1.1 201 Created\r\nContent-Length: 5\r\nX-Thing:  spaced value \r\n\r\nhello")
    #expect(response.status == 201)
    #expect(response.bodyText == "hello")
    #expect(response.header("x-thing") == "spaced value")
  }

  @Test func aChunkedBodyIsJoinedAndItsTrailersDropped() async throws {
    let response = try await get(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nTrailer: x\r\n\r\n"
    )
    #expect(response.bodyText == "hello, world")
  }

  @Test func aBodyWithoutLengthRunsToTheEndOfTheConnection() async throws {
    let response = try await get("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it")
    #expect(response.bodyText == "all of it")
  }

  @Test func interimHeadsAreSkipped() async throws {
    let response = try await get(
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: x\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
    )
    #expect(response.status == 200)
    #expect(response.bodyText == "ok")
  }

  @Test func aHeadAnswerHasNoBodyWhateverItsLength() async throws {
    let response = try await get("HTTP/1.1 200 OK\r\nContent-Length: 42\r\n\r\n", method: "HEAD")
    #expect(response.status == 200)
    #expect(response.body.isEmpty)
  }

  @Test func noContentHasNoBody() async throws {
    let response = try await get("HTTP/1.1 204 No Content\r\n\r\n", close: false)
    #expect(response.status == 204)
    #expect(response.body.isEmpty)
  }

  @Test func bareLineFeedsAreRead() async throws {
    let response = try await get("HTTP/1.1 200 OK\nContent-Length: 2\n\nok")
    #expect(response.bodyText == "ok")
  }

  @Test(arguments: [
    "HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n",
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n14\r\n",
    "HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "x", count: 20),
  ])
  func aBodyOverTheCapIsRefused(answer: String) async throws {
    await #expect(throws: TransportFailure.tooLarge(bytes: 10)) { try await get(answer, maxBytes: 10) }
  }

  @Test(arguments: [
    "SMTP ready\r\n\r\n",
    "HTTP/1.1 2000 OK\r\n\r\n",
    "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
    "HTTP/1.1 200 OK\r\nContent-Length: twelve\r\n\r\n",
    "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    "HTTP/1.1 200 OK\r\nContent-Le",
  ])
  func aBrokenAnswerIsALostConnection(answer: String) async throws {
    await expectFailure({ if case .connectionLost = $0 { true } else { false } }) { try await get(answer) }
  }

  /// A hostile server cannot make the reader hold more than the cap: endless header lines, or
  /// endless interim heads.
  @Test func anEndlessHeadIsRefused() async throws {
    let lines = String(repeating: "X-Filler: \(String(repeating: "x", count: 100))\r\n", count: 1000)
    await expectFailure({ if case .connectionLost = $0 { true } else { false } }) {
      try await get("HTTP/1.1 200 OK\r\n" + lines + "\r\n")
    }
    let interim = String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 20_000)
    await expectFailure({ $0 == .tooLarge(bytes: 10_000) }, { try await get(interim, maxBytes: 10_000) })
  }

  @Test func theRequestGoesOutAsHTTP11() async throws {
    let server = try RawServer(answer: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
    let transport = SocketHTTPTransport()
    let url = URL(string: "http://127.0.0.1:\(server.port)/auth/v1/user?a=b%20c")!
    _ = try await transport.send(
      HTTPRequest(
        method: "POST", url: url, headers: [("apikey", "k"), ("content-length", "99")], body: Array("{}".utf8)))
    // The body follows the head; the server records the head.
    #expect(
      server.requests == [
        "POST /auth/v1/user?a=b%20c HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\napikey: k\r\nContent-Length: 2\r\n\r\n"
      ])
  }

  @Test func aClosedPortIsRefused() async throws {
    let reserved = try ReservedPort()
    let port = reserved.port
    defer { withExtendedLifetime(reserved) {} }
    await expectFailure({ if case .refused = $0 { true } else { false } }) {
      try await SocketHTTPTransport().send(
        HTTPRequest(method: "GET", url: URL(string: "http://127.0.0.1:\(port)/")!, timeout: 2))
    }
  }

  @Test func aNameThatDoesNotResolveIsHostNotFound() async throws {
    await expectFailure({ if case .hostNotFound = $0 { true } else { false } }) {
      try await SocketHTTPTransport().send(
        HTTPRequest(method: "GET", url: URL(string: "http://no-such-host.invalid/")!, timeout: 5))
    }
  }

  @Test func aHeaderWithALineBreakIsNotSent() async throws {
    let server = try RawServer(answer: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
    let request = HTTPRequest(
      method: "GET", url: URL(string: "http://127.0.0.1:\(server.port)/")!, headers: [("apikey", "a\r\nX: y")])
    await #expect(throws: TransportFailure.unsendableHeader("apikey")) { try await SocketHTTPTransport().send(request) }
    #expect(server.requests.isEmpty)
  }
}
