import AuthTestSupport
import Foundation
import Testing

@Suite("authsh emulator start-up")
struct EmulatorStartTests {
  @Test func aBusyPortSaysSoInWords() async throws {
    let occupant = FixtureServer()
    try await occupant.start()
    try await withStarted(occupant) { occupant in
      let port = occupant.port
      let outcome = try await BinaryRunner().run(["emulator", "--port", String(port)], timeout: 30)
      #expect(outcome.status == 1)
      #expect(
        outcome.stderr
          == "error: could not start the emulator: port \(port) is in use; try --port 0 (any free port), or stop the other server\n"
      )
      #expect(!outcome.stderr.contains("descriptor"), "no internal function names")
    }
  }

  @Test func likeProductionReachesTheInProcessEmulatorAndNeedsIt() async throws {
    let runner = try BinaryRunner()
    let signup = ["signup", "lp@example.com", "--name", "Lp", "--password", "long-enough-1", "--json"]
    let production = try await runner.run(["--emulator", "--like-production"] + signup, timeout: 30)
    // Like a hosted project on the built-in mail service: no mail to an address outside the team.
    #expect(production.status == 1, "\(production.stderr)")
    #expect(production.stdout.contains("email_address_not_authorized"), "\(production.stdout)")
    #expect(!production.stdout.contains("access_token"))
    let local = try await runner.run(["--emulator"] + signup, timeout: 30)
    #expect(local.stdout.contains("access_token"), "default: signed in at once")
    for arguments in [["--like-production", "whoami"], ["run", "--like-production", "x.auth"]] {
      let alone = try await runner.run(arguments, timeout: 30)
      #expect(alone.status == 64)
      #expect(alone.stderr.hasPrefix("error: --like-production applies to the in-process emulator: add --emulator\n"))
    }
  }

  /// `run --emulator --like-production --smtp custom`: a project with its own SMTP server mails
  /// anyone, as the example scripts' headers run them.
  @Test func runTakesTheSMTPServiceOfTheInProcessEmulator() async throws {
    let runner = try BinaryRunner()
    let script = runner.home + "/signup.auth"
    try "test \"sign up\"\nsignup smtp-{{uuid}}@example.com --name Smtp --password long-enough-1\nexpect ok\n".write(
      toFile: script, atomically: true, encoding: .utf8)
    let builtIn = try await runner.run(["run", "--emulator", "--like-production", script], timeout: 60)
    #expect(builtIn.status == 1 && builtIn.stderr.contains("will not mail this address"), "\(builtIn.stderr)")
    let custom = try await runner.run(
      ["run", "--emulator", "--like-production", "--smtp", "custom", script], timeout: 60)
    #expect(custom.status == 0, "\(custom.stdout)\(custom.stderr)")
    let alone = try await runner.run(["run", "--smtp", "custom", script], timeout: 30)
    #expect(
      alone.status == 64 && alone.stderr.hasPrefix("error: --smtp applies to the in-process emulator: add --emulator\n")
    )
  }
}
