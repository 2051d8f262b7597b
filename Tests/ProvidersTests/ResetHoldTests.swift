import AuthCore
import AuthTestSupport
import Foundation
import HTTPServerKit
import ShellKit
import Testing

/// Issue 11 item 6: the `reset` hold belongs to a backend, and holds past their window are
/// dropped from the store (it does not collect customers' addresses).
@Suite struct ResetHoldTests {
  @Test func holdIsPerBackendAndPrunedPastTheWindow() async throws {
    try await withStarted(Harness(.supabase)) { harness in
      let other = FixtureServer()
      try await other.start()
      try await withStarted(other) { other in
        let clock = ManualClock()
        harness.clock = clock
        for server in [harness.server, other] { server.on("POST", "/auth/v1/recover", status: 200, json: "{}") }
        let first = harness.context()
        let second = harness.context(url: other.baseURL)
        let firstKey = BackendKey(try first.target()).canonical
        let secondKey = BackendKey(try second.target()).canonical
        #expect(firstKey != secondKey)

        #expect(try await harness.run("reset ada@example.com", context: first).error == nil)
        let held = try await harness.run("reset Ada@Example.com", context: first)
        #expect(held.error?.code == .resetCooldown)
        #expect(held.error?.retryAfterSeconds == 60)
        // The same address on another backend is not held back by the first one.
        #expect(try await harness.run("reset ada@example.com", context: second).error == nil)
        #expect(other.requests.count == 1)
        #expect(try harness.store.load(profile: firstKey).resetSentAt == ["ada@example.com": clock.unixNow])

        clock.advance(30)
        #expect(try await harness.run("reset ada@example.com", context: first).error?.retryAfterSeconds == 30)
        #expect(try await harness.run("reset bo@example.com", context: first).error == nil)
        clock.advance(31)
        #expect(try await harness.run("reset cy@example.com", context: first).error == nil)
        let kept = try harness.store.load(profile: firstKey).resetSentAt
        #expect(kept.keys.sorted() == ["bo@example.com", "cy@example.com"], "ada's hold (61 s old) was dropped")
        #expect(try await harness.run("reset ada@example.com", context: first).error == nil, "the window is over")
      }
    }
  }
}
