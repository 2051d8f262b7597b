import AuthCore
import AuthTestSupport
import Foundation
import HTTPServerKit
import NIOCore
import NIOHTTP1
import Testing

@testable import NIOTransport

/// The request bytes `NIOHTTPTransport` writes itself (`RequestWriter`), and what a real server
/// makes of them.
@Suite struct RequestWriterTests {
  @Test func aRequestIsWrittenAsHTTP11WithItsHeadersInOrder() throws {
    let url = try #require(URL(string: "http://127.0.0.1:9999/auth/v1/token?grant_type=password"))
    let request = HTTPRequest(
      method: "POST", url: url, headers: [("apikey", "k"), ("Content-Type", "application/json")], body: Array("{}".utf8)
    )
    let parts = NIOHTTPTransport.parts(request, ConnectionPool.Key(host: "127.0.0.1", port: 9999))
    guard case .head(let head) = parts.first else {
      Issue.record("no head first")
      return
    }
    let buffer = ByteBuffer(bytes: RequestWriter.bytes(of: head))
    #expect(
      String(buffer: buffer)
        == "POST /auth/v1/token?grant_type=password HTTP/1.1\r\nHost: 127.0.0.1:9999\r\napikey: k\r\n"
        + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n")
    #expect(RequestWriter.size(of: head) >= buffer.readableBytes, "one allocation for the head's bytes")
  }

  @Test func theHostHeaderLeavesOutPort80AndAGetWithoutABodyHasNoLength() throws {
    let url = try #require(URL(string: "http://localhost/health"))
    let parts = NIOHTTPTransport.parts(
      HTTPRequest(method: "GET", url: url), ConnectionPool.Key(host: "localhost", port: 80))
    guard case .head(let head) = parts.first else {
      Issue.record("no head first")
      return
    }
    let buffer = ByteBuffer(bytes: RequestWriter.bytes(of: head))
    #expect(String(buffer: buffer) == "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
    #expect(parts.count == 2, "a head and an end, no body part")
  }

  @Test func aServerReadsTheBodyAndAHeadAnswerLeavesTheConnectionInStep() async throws {
    let server = FixtureServer()
    try await server.start()
    try await withStarted(server) { server in
      server.on("POST", "/echo") { request in .text(201, "got " + String(decoding: request.body, as: UTF8.self)) }
      // A HEAD answer announces a length and sends no body: the decoder must know the request was HEAD.
      server.on("HEAD", "/echo") { _ in ServerResponse(status: 200, headers: [("Content-Length", "5")], body: []) }
      let transport = NIOHTTPTransport()
      let url = try #require(URL(string: "\(server.baseURL)/echo"))
      let body = Array("{\"email\":\"ada@example.com\"}".utf8)
      let posted = try await transport.send(
        HTTPRequest(method: "POST", url: url, headers: [("Content-Type", "application/json")], body: body))
      #expect(posted.status == 201 && posted.bodyText == "got {\"email\":\"ada@example.com\"}")
      let head = try await transport.send(HTTPRequest(method: "HEAD", url: url))
      #expect(head.status == 200 && head.body.isEmpty)
      let again = try await transport.send(HTTPRequest(method: "POST", url: url, body: Array("x".utf8)))
      #expect(again.bodyText == "got x")
      #expect(transport.connectionsOpened == 1)
      let seen = server.requests
      #expect(seen.map(\.method) == ["POST", "HEAD", "POST"])
      #expect(seen.first?.headers.first { $0.name.lowercased() == "content-length" }?.value == String(body.count))
    }
  }
}
