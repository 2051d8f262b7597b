import AuthTestSupport
import Foundation
import Testing

/// `… | authsh`: standard input runs as a script, as psql and redis-cli read theirs.
@Suite("Piped input")
struct PipedInputTests {
  @Test func quitOrExitEndsTheInput() async throws {
    let runner = try BinaryRunner()
    for (input, word) in [("status\nquit\nwhoami\n", "quit"), ("echo hi\r\nexit\r\nwhoami\r\n", "exit")] {
      let outcome = try await runner.run(["--emulator"], stdin: input)
      #expect(outcome.status == 0, "\(word): \(outcome.combined)")
      // The whoami after quit/exit would fail with "You are not signed in.": it is never read.
      #expect(!outcome.stderr.contains("You are not signed in."), "\(word): \(outcome.combined)")
      #expect(!outcome.stderr.contains("works only in the interactive shell"))
    }
  }

  @Test func sourceRunsAFileLikeInclude() async throws {
    let runner = try BinaryRunner()
    let script = runner.home + "/steps.auth"
    try "echo from-the-sourced-file\n".write(toFile: script, atomically: true, encoding: .utf8)
    let outcome = try await runner.run(["--emulator"], stdin: "source \(script)\necho after\n")
    #expect(outcome.status == 0, "\(outcome.combined)")
    #expect(outcome.stdout.contains("from-the-sourced-file\n") && outcome.stdout.contains("after\n"))
  }

  @Test func theFirstFailingLineStopsTheRest() async throws {
    let runner = try BinaryRunner()
    let outcome = try await runner.run(["--emulator"], stdin: "whoami\necho not-reached\n")
    #expect(outcome.status == 4, "not signed in exits 4, as a one-shot whoami")
    #expect(!outcome.stdout.contains("not-reached"))
  }

  @Test func holesReadThePreviousResultPastAnEcho() async throws {
    let runner = try BinaryRunner()
    let input = """
      signup ada@example.com --name Ada --password-env PW
      reset ada@example.com
      inbox ada@example.com
      echo between
      reset confirm {{inbox.link}} --password-env NEW_PW
      whoami

      """
    let outcome = try await runner.run(
      ["--emulator"], stdin: input, extraEnvironment: ["PW": "correct-horse-1", "NEW_PW": "a-new-password-2"])
    #expect(outcome.status == 0, "\(outcome.combined)")
    #expect(
      outcome.stdout.contains("Password changed.") || outcome.stderr.contains("Password changed."),
      "\(outcome.combined)")
  }
}
