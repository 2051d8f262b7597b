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
      let arrived = ["a": Signal(), "b": Signal()]
      // `a` and `b` are held until `a`'s cancellation is over, so both are in flight when it
      // comes; `c` answers after a second, time enough for a stale wake-up to show.
      let cancellationOver = Signal()
      server.on("GET", "/n") { request in
        if let signal = arrived[request.rawQuery] {
          signal.fire()
          try? await cancellationOver.wait()
        } else {
          await Stall.hold(upTo: .seconds(1))
        }
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
      for signal in arrived.values { try await signal.wait() }
      cancelled.cancel()
      await #expect(throws: TransportFailure.cancelled) { try await cancelled.value }
      cancellationOver.fire()
      #expect(try await kept.value.bodyText == "answer to /n?b")
      // The next request on the transport is not woken by the earlier cancellation.
      #expect(try await get("c").value.bodyText == "answer to /n?c")
    }
  }
}
