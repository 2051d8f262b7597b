import AuthCore
import AuthTestSupport
import Foundation
import HTTPServerKit
import NIOCore
import NIOTransport
import Synchronization
import Testing

/// Keep-alive reuse in `NIOHTTPTransport`, against a real server on loopback: what a user would
/// notice is that every request still gets its own, right answer whatever happened to the
/// connection before it.
@Suite struct ConnectionReuseTests {
  private func server() async throws -> FixtureServer {
    let server = FixtureServer()
    try await server.start()
    server.on("GET", "/n") { request in .text(200, "answer to \(request.uri)") }
    return server
  }

  private func get(_ transport: NIOHTTPTransport, _ server: FixtureServer, _ query: String, timeout: Double = 30) async throws -> HTTPResponse {
    guard let url = URL(string: "\(server.baseURL)/n?\(query)") else { throw TransportFailure.other("bad test URL") }
    return try await transport.send(HTTPRequest(method: "GET", url: url, timeout: timeout))
  }

  @Test func sequentialRequestsShareOneConnection() async throws {
    let server = try await server()
    defer { Task { await server.stop() } }
    let transport = NIOHTTPTransport()
    for index in 1...5 {
      let response = try await get(transport, server, "i=\(index)")
      #expect(response.bodyText == "answer to /n?i=\(index)")
    }
    #expect(transport.connectionsOpened == 1)
    #expect(server.requests.count == 5)
  }

  @Test func concurrentRequestsGetTheirOwnAnswers() async throws {
    let server = try await server()
    defer { Task { await server.stop() } }
    let transport = NIOHTTPTransport()
    let bodies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
      for index in 1...8 {
        group.addTask { (index, try await get(transport, server, "i=\(index)").bodyText) }
      }
      return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
    }
    for index in 1...8 { #expect(bodies[index] == "answer to /n?i=\(index)") }
    #expect(transport.connectionsOpened <= 8)
  }

  @Test func connectionCloseFromTheServerIsHonoured() async throws {
    let server = try await server()
    defer { Task { await server.stop() } }
    server.on("GET", "/n") { _ in ServerResponse(status: 200, headers: [("Connection", "close")], body: Array("bye".utf8)) }
    let transport = NIOHTTPTransport()
    #expect(try await get(transport, server, "a").bodyText == "bye")
    #expect(try await get(transport, server, "b").bodyText == "bye")
    #expect(transport.connectionsOpened == 2)
  }

  @Test func aTimedOutRequestDoesNotLeaveItsAnswerForTheNextOne() async throws {
    let server = try await server()
    defer { Task { await server.stop() } }
    server.on("GET", "/n") { request in
      if request.uri.hasSuffix("slow") { try? await Task.sleep(nanoseconds: 2_500_000_000) }
      return .text(200, "answer to \(request.uri)")
    }
    let transport = NIOHTTPTransport()
    #expect(try await get(transport, server, "first").bodyText == "answer to /n?first")
    await #expect(throws: TransportFailure.timedOut) { try await get(transport, server, "slow", timeout: 1) }
    #expect(try await get(transport, server, "next").bodyText == "answer to /n?next")
    #expect(transport.connectionsOpened == 2)
  }

  @Test func idleConnectionsAreClosedAfterTheIdleTimeout() async throws {
    let server = try await server()
    defer { Task { await server.stop() } }
    let transport = NIOHTTPTransport(idleTimeout: .milliseconds(20))
    #expect(try await get(transport, server, "a").bodyText == "answer to /n?a")
    // Waits for the pool to empty itself; no upper bound on how long that takes.
    while transport.idleConnections > 0 { try await Task.sleep(nanoseconds: 10_000_000) }
    #expect(try await get(transport, server, "b").bodyText == "answer to /n?b")
    #expect(transport.connectionsOpened == 2)
  }

  @Test func aConnectionTheServerClosedIsNotReused() async throws {
    let first = try await server()
    let transport = NIOHTTPTransport()
    #expect(try await get(transport, first, "a").bodyText == "answer to /n?a")
    await first.stop()
    while transport.idleConnections > 0 { try await Task.sleep(nanoseconds: 10_000_000) }
    let second = try await server()
    defer { Task { await second.stop() } }
    #expect(try await get(transport, second, "b").bodyText == "answer to /n?b")
  }

  /// A kept-alive connection that closes before a byte of the answer (a server making room, an
  /// idle limit) costs the user nothing: the request goes again, once, on a fresh connection.
  @Test func aReusedConnectionClosedBeforeTheAnswerIsRetriedOnceOnAFreshOne() async throws {
    let server = try await server()
    defer { Task { await server.stop() } }
    let calls = Mutex(0)
    server.on("GET", "/n") { request in
      calls.withLock { $0 += 1; return $0 } == 2 ? .dropConnection : .text(200, "answer to \(request.uri)")
    }
    let transport = NIOHTTPTransport()
    #expect(try await get(transport, server, "a").bodyText == "answer to /n?a")
    #expect(try await get(transport, server, "b").bodyText == "answer to /n?b")
    #expect(try await get(transport, server, "c").bodyText == "answer to /n?c")
    #expect(transport.connectionsOpened == 2)
    #expect(server.requests.count == 4)
  }

  /// Only once, and never on a fresh connection: a server that drops every request is an error.
  @Test func aFreshConnectionClosedBeforeTheAnswerIsAnError() async throws {
    let server = try await server()
    defer { Task { await server.stop() } }
    let calls = Mutex(0)
    server.on("GET", "/n") { request in
      calls.withLock { $0 += 1; return $0 } == 1 ? .text(200, "answer to \(request.uri)") : .dropConnection
    }
    let transport = NIOHTTPTransport()
    #expect(try await get(transport, server, "a").bodyText == "answer to /n?a")
    await #expect {
      try await get(transport, server, "b")
    } throws: { error in
      if case .connectionLost = error as? TransportFailure { return true }
      return false
    }
    #expect(server.requests.count == 3)
    #expect(transport.connectionsOpened == 2)
  }
}
