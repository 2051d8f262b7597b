import Testing

@testable import AuthScript

/// `echo`, `sleep` and `help` give no result of their own: `expect`, `assert` and `{{…}}` after
/// them still look at the command before (only `output` is the text they printed).
@Suite struct PreviousResultTests {
  @Test func echoAndSleepLeaveThePreviousResult() async {
    let outcome = await RunHarness(
      """
      secret pw = "correct-horse-1"
      test "echo between a command and its checks"
      signup ada@example.com --password {{pw}}
      echo signed up {{user.email}}
      sleep 1ms
      help whoami
      assert user.email == "ada@example.com"
      expect ok
      echo again {{user.email}}
      """
    ).run()
    #expect(outcome.exit == 0, "\(outcome.out)\(outcome.err)")
    #expect(outcome.out.contains("signed up ada@example.com\n"))
    #expect(outcome.out.contains("again ada@example.com\n"))
  }

  @Test func aFailedCommandFollowedByEchoIsStillTakenByItsExpect() async {
    let outcome = await RunHarness(
      """
      test "refused"
      login nobody@example.com --password wrong-password
      echo that should be refused
      expect error invalid_credentials
      assert error.code == "invalid_credentials"
      """
    ).run()
    #expect(outcome.exit == 0, "\(outcome.out)\(outcome.err)")
    #expect(outcome.out.contains("that should be refused\n"))
  }

  @Test func echoFirstIsThePreviousResultAndOutputFollowsTheLastEcho() async {
    let outcome = await RunHarness(
      """
      echo nothing ran yet
      assert output == "nothing ran yet"
      login nobody@example.com --password wrong-password
      expect error invalid_credentials
      echo after the login
      assert output == "after the login"
      assert command == "login"
      assert ok == false
      """
    ).run()
    #expect(outcome.exit == 0, "\(outcome.out)\(outcome.err)")
  }
}
