import AuthCore
import AuthTestSupport
import Foundation
import HTTPServerKit
import SocketTransport
import Testing

/// Cancelling one request ends that one: requests in flight at the same time on the same transport
/// (each on a thread of its own) wait on wakers of their own.
@Suite struct CancellationTests {
  @Test func cancellingOneOfTwoRequestsLeavesTheOtherToFinish() async throws {
    let server = FixtureServer()
    try await server.start()
    try await withStarted(server) { server in
      server.on("GET", "/n") { request in
        try? await Task.sleep(nanoseconds: 1_000_000_000)
        return .text(200, "answer to \(request.uri)")
      }
      let transport = SocketHTTPTransport()
      func get(_ query: String) -> Task<HTTPResponse, any Error> {
        Task {
          try await ThreadTaskExecutor.onOwnThread {
            try await transport.send(
              HTTPRequest(method: "GET", url: URL(string: "\(server.baseURL)/n?\(query)")!, timeout: 30))
          }
        }
      }
      let cancelled = get("a")
      let kept = get("b")
      try await Task.sleep(nanoseconds: 200_000_000)
      cancelled.cancel()
      await #expect(throws: TransportFailure.cancelled) { try await cancelled.value }
      #expect(try await kept.value.bodyText == "answer to /n?b")
      // The next request on the transport is not woken by the earlier cancellation.
      #expect(try await get("c").value.bodyText == "answer to /n?c")
    }
  }
}
