import AuthEmulator
import AuthTestSupport
import Foundation
import HTTPServerKit
import Testing

/// Issue 11 items 2 and 4, through the real binary: a session belongs to the backend that issued
/// it (provider + endpoint + project), never to a profile name; `--emulator` sessions stay in memory.
@Suite(.serialized) struct BackendSessionTests {
  static let inactivity = "logged out due to inactivity"

  /// Signs in on both sides of one emulator, then points authsh at a recording fixture server in
  /// every way there is: no token reaches it, and neither real session is shown or lost.
  @Test func switchingBackendNeverSendsOrShowsAnotherBackendsSession() async throws {
    try await withStarted(CLIEmulator(provider: "supabase")) { cli in
      let other = FixtureServer()
      try await other.start()
      try await withStarted(other) { other in
        cli.runner.environment["FIREBASE_AUTH_EMULATOR_HOST"] = cli.emulator.firebaseHost
        cli.runner.environment["FIREBASE_API_KEY"] = "api-key-for-cli-tests"
        cli.runner.environment["FIREBASE_PROJECT_ID"] = cli.emulator.config.project
        let pw = ["--password-env", "AUTHSH_TEST_PW"]

        let ada = try await cli.runner.run(
          ["signup", "ada@example.com", "--name", "Ada", "--provider", "supabase"] + pw)
        #expect(ada.status == 0, "\(ada.combined)")
        let bo = try await cli.runner.run(["signup", "bo@example.com", "--name", "Bo", "--provider", "firebase"] + pw)
        #expect(bo.status == 0, "\(bo.combined)")
        let files = try FileManager.default.contentsOfDirectory(atPath: cli.sessionsDirectory).sorted()
        #expect(files.count == 2, "one file per backend: \(files)")
        #expect(files.contains { $0.hasPrefix("firebase-127.0.0.1-") && $0.hasSuffix(".json") }, "\(files)")
        #expect(files.contains { $0.hasPrefix("supabase-127.0.0.1-") && $0.hasSuffix(".json") }, "\(files)")

        func expectNotSignedIn(_ outcome: BinaryRunner.Outcome, _ how: String) {
          #expect(outcome.status == 4, "\(how): \(outcome.combined)")
          #expect(outcome.stderr.contains("You are not signed in."), "\(how): \(outcome.combined)")
          #expect(!outcome.combined.contains(Self.inactivity), "\(how)")
          #expect(
            !outcome.combined.contains("ada@example.com") && !outcome.combined.contains("bo@example.com"), "\(how)")
        }
        expectNotSignedIn(
          try await cli.runner.run(["whoami", "--provider", "supabase", "--url", other.baseURL]), "--url")
        expectNotSignedIn(
          try await cli.runner.run(["whoami", "--provider", "firebase", "--url", other.baseURL]), "firebase --url")
        expectNotSignedIn(
          try await cli.runner.run(
            ["whoami", "--provider", "supabase"], extraEnvironment: ["SUPABASE_URL": other.baseURL]),
          "SUPABASE_URL")
        let status = try await cli.runner.run(["status", "--provider", "supabase", "--url", other.baseURL])
        #expect(
          !status.combined.contains("ada@example.com"), "status shows no other backend's user: \(status.combined)")

        // The same switches inside the shell (standard input is a script: no terminal needed).
        let script = """
          provider supabase --url \(other.baseURL)
          whoami
          expect error not_authenticated
          provider firebase
          whoami
          assert user.email == "bo@example.com"
          provider firebase --url \(other.baseURL)
          whoami
          expect error not_authenticated
          provider supabase
          whoami
          assert user.email == "ada@example.com"

          """
        let shell = try await cli.runner.run([], stdin: script)
        #expect(shell.status == 0, "\(shell.combined)")
        #expect(!shell.combined.contains(Self.inactivity))

        #expect(
          other.requests.isEmpty,
          "no request, let alone a bearer token, reached the other host: \(other.requests.map(\.uri))")
        let stillAda = try await cli.runner.run(["whoami", "--provider", "supabase"])
        #expect(stillAda.status == 0 && stillAda.stdout.contains("ada@example.com"), "\(stillAda.combined)")
        let stillBo = try await cli.runner.run(["whoami", "--provider", "firebase"])
        #expect(stillBo.status == 0 && stillBo.stdout.contains("bo@example.com"), "\(stillBo.combined)")
      }
    }
  }

  /// Two `--emulator` processes (one-shot and shell) write nothing under sessions/, so neither
  /// can sign the other out or show its user.
  @Test func emulatorSessionsStayInMemory() async throws {
    let runner = try BinaryRunner()
    let sessions = runner.home + "/state/authsh/sessions"
    let signup = try await runner.run(
      ["--emulator", "signup", "ada@example.com", "--name", "Ada", "--password", "Known-Pa55word-1"])
    #expect(signup.status == 0, "\(signup.combined)")
    let shell = try await runner.run(
      ["--emulator"],
      stdin:
        "signup bo@example.com --name Bo --password Known-Pa55word-2\nwhoami\nassert user.email == \"bo@example.com\"\n"
    )
    #expect(shell.status == 0, "\(shell.combined)")
    let second = try await runner.run(["--emulator", "whoami"])
    #expect(second.status == 4, "\(second.combined)")
    #expect(second.stderr.contains("You are not signed in."), "\(second.combined)")
    #expect(!second.combined.contains(Self.inactivity))
    let written = (try? FileManager.default.contentsOfDirectory(atPath: sessions)) ?? []
    #expect(written.isEmpty, "nothing under sessions/: \(written)")
  }
}
