import AuthEmulator
import AuthTestSupport
import Foundation
import Testing

/// `authsh emulator faults clear` against a running emulator (DELETE /emulator/v1/faults).
@Suite struct EmulatorFaultsClearTests {
  @Test func clearsTheFaultsOfARunningEmulator() async throws {
    let fault = try EmulatorFault.parse(spec: "POST /auth/v1/token rate_limitx0")
    try await withStarted(CLIEmulator(provider: "supabase") { $0.faults = [fault] }) { cli in
      #expect(cli.emulator.faults.all.count == 1)
      let port = String(cli.emulator.port)
      let cleared = try await cli.authsh("emulator", "faults", "clear", "--port", port)
      #expect(cleared.status == 0, "\(cleared.stderr)")
      #expect(cleared.stdout == "Cleared the faults of http://127.0.0.1:\(port).\n")
      #expect(cli.emulator.faults.all.isEmpty)

      // The URL a CI job has (`AUTHSH_EMULATOR_URL`, or SUPABASE_URL with its path) works too.
      cli.emulator.faults.append(try EmulatorFault.parse(spec: "GET /auth/v1/user html502"))
      let byURL = try await cli.authsh("emulator", "faults", "clear", "--url", cli.emulator.supabaseURL)
      #expect(byURL.status == 0, "\(byURL.stderr)")
      #expect(cli.emulator.faults.all.isEmpty)
    }
  }

  @Test func nothingListeningIsABackendProblem() async throws {
    let reserved = try ReservedPort()
    let port = reserved.port
    let outcome = try await BinaryRunner().run(["emulator", "faults", "clear", "--port", String(port)], timeout: 30)
    #expect(outcome.status == 3)
    #expect(
      outcome.stderr.hasPrefix(
        "error: could not clear the faults of http://127.0.0.1:\(port): nothing is listening there"))
    withExtendedLifetime(reserved) {}
  }

  @Test func badFlagsAreUsageErrors() async throws {
    let runner = try BinaryRunner()
    #expect(try await runner.run(["emulator", "faults", "clear", "--url", "nope"]).status == 64)
    #expect(try await runner.run(["emulator", "faults", "clear", "--port", "x"]).status == 64)
    #expect(
      try await runner.run(["emulator", "faults", "clear", "--port", "1", "--url", "http://127.0.0.1:1"]).status == 64)
    let both = try await runner.run(["emulator", "--port", "0", "--json", "--print-env"])
    #expect(both.status == 64)
    #expect(both.stderr.contains("--print-env or --json"))
  }
}
