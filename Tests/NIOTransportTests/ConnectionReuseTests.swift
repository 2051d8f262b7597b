import AuthCore
import AuthTestSupport
import Foundation
import HTTPServerKit
import NIOCore
import NIOTransport
import SocketTransport
import Synchronization
import Testing

/// The two transports of plain http://: NIO's event loop (the shell, one-shot commands, parallel
/// work) and blocking sockets (a script's own thread). Both keep the same promises.
enum Plain: String, CaseIterable, CustomTestStringConvertible {
  case nio, socket

  var testDescription: String { rawValue }

  /// A parked connection is kept `idleTimeout` seconds (2 in authsh): far longer here by default,
  /// so that a test stalled for a while under a loaded CI machine still finds the connection it
  /// counts on reusing (an expired one made a retry test open a fresh connection, which is not
  /// retried, and fail). The test of the expiry gives its own.
  func make(idleTimeout: Double = 120) -> any CountingTransport {
    switch self {
    case .nio: NIOHTTPTransport(idleTimeout: .milliseconds(Int64(idleTimeout * 1000)))
    case .socket: BlockingThreadTransport(inner: SocketHTTPTransport(idleTimeout: idleTimeout))
    }
  }
}

protocol CountingTransport: HTTPTransport {
  var connectionsOpened: Int { get }
  /// Returns once no connection is parked (NIO closes them on a timer; the socket transport
  /// drops them when a request finds them expired or closed, so a wait past the timeout is it).
  func waitUntilNothingIsParked(idleTimeout: Double) async throws
}

extension NIOHTTPTransport: CountingTransport {
  func waitUntilNothingIsParked(idleTimeout: Double) async throws {
    // No upper bound on how long that takes.
    while idleConnections > 0 { try await Task.sleep(nanoseconds: 10_000_000) }
  }
}

/// Each request on a thread of its own that may block, as `authsh run` sends from its main
/// thread (blocking a shared pool's thread could hold up the test server's own handlers).
struct BlockingThreadTransport: CountingTransport {
  let inner: SocketHTTPTransport

  var connectionsOpened: Int { inner.connectionsOpened }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try await ThreadTaskExecutor.onOwnThread { try await inner.send(request) }
  }

  func waitUntilNothingIsParked(idleTimeout: Double) async throws {
    try await Task.sleep(nanoseconds: UInt64(idleTimeout * 1e9) + 50_000_000)
  }
}

/// Keep-alive reuse in both plain-http transports, against a real server on loopback: what a user
/// would notice is that every request still gets its own, right answer whatever happened to the
/// connection before it.
@Suite struct ConnectionReuseTests {
  private func server() async throws -> FixtureServer {
    let server = FixtureServer()
    try await server.start()
    server.on("GET", "/n") { request in .text(200, "answer to \(request.uri)") }
    return server
  }

  private func get(_ transport: any CountingTransport, _ server: FixtureServer, _ query: String, timeout: Double = 30)
    async throws -> HTTPResponse
  {
    guard let url = URL(string: "\(server.baseURL)/n?\(query)") else { throw TransportFailure.other("bad test URL") }
    return try await transport.send(HTTPRequest(method: "GET", url: url, timeout: timeout))
  }

  @Test(arguments: Plain.allCases) func sequentialRequestsShareOneConnection(_ plain: Plain) async throws {
    try await withStarted(server()) { server in
      let transport = plain.make()
      for index in 1...5 {
        let response = try await get(transport, server, "i=\(index)")
        #expect(response.bodyText == "answer to /n?i=\(index)")
      }
      #expect(transport.connectionsOpened == 1)
      #expect(server.requests.count == 5)
    }
  }

  @Test(arguments: Plain.allCases) func concurrentRequestsGetTheirOwnAnswers(_ plain: Plain) async throws {
    try await withStarted(server()) { server in
      let transport = plain.make()
      let bodies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
        for index in 1...8 {
          group.addTask { (index, try await get(transport, server, "i=\(index)").bodyText) }
        }
        return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
      }
      for index in 1...8 { #expect(bodies[index] == "answer to /n?i=\(index)") }
      #expect(transport.connectionsOpened <= 8)
    }
  }

  @Test(arguments: Plain.allCases) func connectionCloseFromTheServerIsHonoured(_ plain: Plain) async throws {
    try await withStarted(server()) { server throws in
      server.on("GET", "/n") { _ in
        ServerResponse(status: 200, headers: [("Connection", "close")], body: Array("bye".utf8))
      }
      let transport = plain.make()
      #expect(try await get(transport, server, "a").bodyText == "bye")
      #expect(try await get(transport, server, "b").bodyText == "bye")
      #expect(transport.connectionsOpened == 2)
    }
  }

  @Test(arguments: Plain.allCases) func aTimedOutRequestDoesNotLeaveItsAnswerForTheNextOne(_ plain: Plain) async throws
  {
    try await withStarted(server()) { server throws in
      server.on("GET", "/n") { request in
        if request.uri.hasSuffix("slow") { await Stall.hold(upTo: .seconds(2.5)) }
        return .text(200, "answer to \(request.uri)")
      }
      let transport = plain.make()
      #expect(try await get(transport, server, "first").bodyText == "answer to /n?first")
      await #expect(throws: TransportFailure.timedOut) { try await get(transport, server, "slow", timeout: 1) }
      #expect(try await get(transport, server, "next").bodyText == "answer to /n?next")
      #expect(transport.connectionsOpened == 2)
    }
  }

  /// Cancelling the task that waits for an answer ends the wait with `cancelled` (Ctrl-C in the
  /// shell), however long the server would take.
  @Test(arguments: Plain.allCases) func aCancelledRequestEndsAtOnce(_ plain: Plain) async throws {
    try await withStarted(server()) { server in
      let arrived = Signal()
      server.on("GET", "/n") { request in
        arrived.fire()
        await Stall.hold(upTo: .seconds(20))
        return .text(200, "late")
      }
      let transport = plain.make()
      let request = Task { try await get(transport, server, "slow") }
      try await arrived.wait()  // the request is in flight: the server has it
      request.cancel()
      await #expect(throws: TransportFailure.cancelled) { try await request.value }
    }
  }

  @Test(arguments: Plain.allCases) func idleConnectionsAreClosedAfterTheIdleTimeout(_ plain: Plain) async throws {
    try await withStarted(server()) { server in
      let transport = plain.make(idleTimeout: 0.02)
      #expect(try await get(transport, server, "a").bodyText == "answer to /n?a")
      try await transport.waitUntilNothingIsParked(idleTimeout: 0.02)
      #expect(try await get(transport, server, "b").bodyText == "answer to /n?b")
      #expect(transport.connectionsOpened == 2)
    }
  }

  @Test(arguments: Plain.allCases) func aConnectionTheServerClosedIsNotReused(_ plain: Plain) async throws {
    let first = try await server()
    let transport = plain.make()
    #expect(try await get(transport, first, "a").bodyText == "answer to /n?a")
    await first.stop()
    try await transport.waitUntilNothingIsParked(idleTimeout: 0)
    try await withStarted(server()) { second throws in
      #expect(try await get(transport, second, "b").bodyText == "answer to /n?b")
    }
  }

  /// A kept-alive connection that closes before a byte of the answer (a server making room, an
  /// idle limit) costs the user nothing: the request goes again, once, on a fresh connection.
  @Test(arguments: Plain.allCases) func aReusedConnectionClosedBeforeTheAnswerIsRetriedOnceOnAFreshOne(_ plain: Plain)
    async throws
  {
    try await withStarted(server()) { server throws in
      let calls = Mutex(0)
      server.on("GET", "/n") { request in
        calls.withLock {
          $0 += 1
          return $0
        } == 2 ? .dropConnection : .text(200, "answer to \(request.uri)")
      }
      let transport = plain.make()
      #expect(try await get(transport, server, "a").bodyText == "answer to /n?a")
      #expect(try await get(transport, server, "b").bodyText == "answer to /n?b")
      #expect(try await get(transport, server, "c").bodyText == "answer to /n?c")
      #expect(transport.connectionsOpened == 2)
      #expect(server.requests.count == 4)
    }
  }

  /// Only once, and never on a fresh connection: a server that drops every request is an error.
  @Test(arguments: Plain.allCases) func aFreshConnectionClosedBeforeTheAnswerIsAnError(_ plain: Plain) async throws {
    try await withStarted(server()) { server throws in
      let calls = Mutex(0)
      server.on("GET", "/n") { request in
        calls.withLock {
          $0 += 1
          return $0
        } == 1 ? .text(200, "answer to \(request.uri)") : .dropConnection
      }
      let transport = plain.make()
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
}
