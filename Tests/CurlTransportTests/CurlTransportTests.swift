import AuthCore
import AuthTestSupport
import CurlTransport
import Foundation
import HTTPServerKit
import Testing

/// `CurlTransport` against a real server on loopback (plain http: the TLS path is tested with a
/// real handshake in Tests/python/transport): what goes on the wire, what comes back, and how a
/// request ends when the user stops waiting.
@Suite struct CurlTransportTests {
  private func server() async throws -> FixtureServer {
    let server = FixtureServer()
    try await server.start()
    return server
  }

  private func url(_ server: FixtureServer, _ path: String) throws -> URL {
    guard let url = URL(string: server.baseURL + path) else { throw TransportFailure.other("bad test URL") }
    return url
  }

  @Test func methodHeadersAndBodyArriveAsGivenAndTheAnswerComesBackWhole() async throws {
    try await withStarted(server()) { server in
      server.on("PATCH", "/thing") { request in
        ServerResponse(status: 201, headers: [("X-Answer", "yes")], body: request.body + Array(" back".utf8))
      }
      let body = Array(String(repeating: "x", count: 5000).utf8)  // past libcurl's Expect: 100-continue size
      let response = try await CurlTransport().send(
        HTTPRequest(
          method: "PATCH", url: try url(server, "/thing?a=1"),
          headers: [("apikey", "k"), ("Content-Type", "application/json"), ("X-Empty", "")], body: body))
      #expect(response.status == 201)
      #expect(response.body == body + Array(" back".utf8))
      #expect(response.headers.contains { $0.name.lowercased() == "x-answer" && $0.value == "yes" })
      let seen = try #require(server.requests.first)
      #expect(seen.method == "PATCH")
      #expect(seen.uri == "/thing?a=1")
      #expect(seen.header("apikey") == "k")
      #expect(seen.header("expect") == nil)
      #expect(seen.header("x-empty") == "")
      #expect(seen.header("user-agent")?.hasPrefix("authsh/") == true)
    }
  }

  @Test func aBodylessPostSendsNoBodyAndNoMadeUpContentType() async throws {
    try await withStarted(server()) { server in
      server.on("POST", "/logout") { _ in .text(204, "") }
      let response = try await CurlTransport().send(HTTPRequest(method: "POST", url: try url(server, "/logout")))
      #expect(response.status == 204)
      let seen = try #require(server.requests.first)
      #expect(seen.body.isEmpty)
      #expect(seen.header("content-type") == nil)
    }
  }

  @Test func cancellingTheTaskEndsTheTransfer() async throws {
    try await withStarted(server()) { server in
      let arrived = Signal()
      server.on("GET", "/slow") { _ in
        arrived.fire()
        await Stall.hold(upTo: .seconds(20))
        return .text(200, "late")
      }
      let transport = CurlTransport()
      let request = HTTPRequest(method: "GET", url: try url(server, "/slow"), timeout: 60)
      let task = Task { try await transport.send(request) }
      try await arrived.wait()  // the transfer is under way: the server has the request
      task.cancel()
      await #expect(throws: TransportFailure.cancelled) { try await task.value }
    }
  }

  @Test func aRedirectIsReturnedNotFollowed() async throws {
    try await withStarted(server()) { server in
      server.on("GET", "/moved") { _ in
        ServerResponse(status: 302, headers: [("Location", "http://127.0.0.1:9/elsewhere")], body: [])
      }
      let response = try await CurlTransport().send(
        HTTPRequest(method: "GET", url: try url(server, "/moved"), headers: [("apikey", "k")]))
      #expect(response.status == 302)
    }
  }
}
