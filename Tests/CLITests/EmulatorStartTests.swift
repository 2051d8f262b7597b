import AuthTestSupport
import Foundation
import Testing

@Suite("authsh emulator start-up")
struct EmulatorStartTests {
  @Test func aBusyPortSaysSoInWords() async throws {
    let occupant = FixtureServer()
    try await occupant.start()
    defer { Task { await occupant.stop() } }
    let port = occupant.port
    let outcome = try await BinaryRunner().run(["emulator", "--port", String(port)], timeout: 30)
    #expect(outcome.status == 1)
    #expect(outcome.stderr == "error: could not start the emulator: port \(port) is in use; try --port 0 (any free port), or stop the other server\n")
    #expect(!outcome.stderr.contains("descriptor"), "no internal function names")
  }
}
