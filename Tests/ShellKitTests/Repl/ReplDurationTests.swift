import ShellKit
import Testing

/// A duration too long for the clocks is an error line; the shell lives on (it trapped: the
/// value passed parsing and overflowed when converted to nanoseconds).
@Suite struct ReplDurationTests {
  @Test func hugeSleepAndTimeoutAreErrorLinesAndTheShellLivesOn() async {
    let shell = ReplHarness(
      [
        "sleep 1e300s", "sleep 99999999999h", "login ada@example.com --timeout 10000000000000000000s",
        "echo still-alive",
      ],
      accounts: ["ada@example.com": "correct-horse"], passwords: ["correct-horse"])
    #expect(await shell.run() == 0)
    #expect(shell.sink.standardOutput.contains("still-alive"))
    #expect(shell.sink.standardError.contains("sleep takes a duration up to 24h such as 2s or 500ms, not '1e300s'"))
    #expect(
      shell.sink.standardError.contains("sleep takes a duration up to 24h such as 2s or 500ms, not '99999999999h'"))
    #expect(shell.sink.standardError.contains("--timeout takes a duration up to 24h"))
    #expect(shell.provider.signInAttempts.isEmpty, "nothing was sent")
  }
}
