import AuthTestSupport
import Foundation
import HTTPServerKit
import Testing

/// A script's steps go out from its own thread over blocking sockets, where the shell and one-shot
/// commands go through an event loop: what a script's user sees must not depend on that.
@Suite struct ScriptTransportTests {
  /// A step past `--timeout` fails as a timeout; the next step gets its own answer, not the late
  /// one of the step before (the timed-out connection is not reused).
  @Test func aTimedOutStepLeavesNothingForTheNext() async throws {
    let server = FixtureServer()
    try await server.start()
    try await withStarted(server) { server in
      server.on("POST", "/auth/v1/token") { request in
        let slow = String(decoding: request.body, as: UTF8.self).contains("slow@")
        if slow { await Stall.hold(upTo: .seconds(2.5)) }
        return ServerResponse(
          status: 400, headers: [("Content-Type", "application/json")],
          body: Array(
            #"{"code":400,"error_code":"invalid_credentials","msg":"Invalid login credentials \#(slow ? "(late)" : "(on time)")"}"#
              .utf8))
      }
      let runner = try BinaryRunner()
      let file = runner.home + "/timeout.auth"
      try """
      provider supabase --url \(server.baseURL) --key anon
      test "a step past its timeout"
      login slow@example.com --password "pw-1234567" --timeout 1
      expect error timeout
      test "the next step"
      login fast@example.com --password "pw-1234567"
      expect error invalid_credentials
      """.write(toFile: file, atomically: true, encoding: .utf8)
      let outcome = try await runner.run(["run", file], timeout: 60)
      #expect(outcome.status == 0, "\(outcome.combined)")
      #expect(outcome.stdout.contains("2 passed"), "\(outcome.stdout)")
      #expect(server.requests.count == 2)
    }
  }

  /// Many steps against a keep-alive server: every step gets the answer to its own request (the
  /// server tells them apart by the Retry-After it gives each address).
  @Test func everyStepGetsItsOwnAnswer() async throws {
    let server = FixtureServer()
    try await server.start()
    try await withStarted(server) { server in
      server.on("POST", "/auth/v1/token") { request in
        let body = String(decoding: request.body, as: UTF8.self)
        let number =
          body.split(separator: "\"").first { $0.hasPrefix("user") && $0.hasSuffix("@example.com") }
          .map { $0.dropFirst(4).prefix { $0.isNumber } } ?? "0"
        return ServerResponse(
          status: 429, headers: [("Content-Type", "application/json"), ("Retry-After", String(number))],
          body: Array(#"{"code":429,"error_code":"over_request_rate_limit","msg":"Request rate limit reached"}"#.utf8))
      }
      let runner = try BinaryRunner()
      let file = runner.home + "/many.auth"
      var script = "provider supabase --url \(server.baseURL) --key anon\n"
      for index in 1...20 {
        script += "login user\(index)@example.com --password \"pw-1234567\"\nexpect error rate_limited\n"
        script += "assert error.retry_after_seconds == \(index)\n"
      }
      try script.write(toFile: file, atomically: true, encoding: .utf8)
      let outcome = try await runner.run(["run", file], timeout: 60)
      #expect(outcome.status == 0, "\(outcome.combined)")
      #expect(server.requests.count == 20)
    }
  }
}
