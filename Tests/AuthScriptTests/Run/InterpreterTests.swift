import AuthCore
import Testing

@testable import AuthScript

@Suite struct InterpreterTests {
  @Test func aPassingSmokeScript() async {
    let outcome = await RunHarness(
      """
      let email = "smoke+{{uuid}}@example.com"
      secret pw = "correct-horse-1"

      test "sign up and sign in"
      signup {{email}} --password {{pw}}
      login {{email}} --password {{pw}}
      whoami
      assert user.email == {{email}}
      assert user.email endsWith "@example.com"
      assert user.email matches "^smoke\\\\+[0-9a-f-]+@"
      assert session.expires_in > 0
      assert session.access_token exists
      assert not user.name exists
      assert ok == true
      capture uid = user.id

      test "wrong password is rejected"
      login {{email}} --password "not-the-password"
      assert error.message == "Invalid email or password"
      expect error invalid_credentials
      echo uid is {{uid}}

      test "reset round trip"
      reset {{email}}
      inbox {{email}}
      assert inbox.link contains {{email}}
      logout
      whoami
      expect error not_authenticated
      """
    ).run()
    #expect(outcome.exit == 0, "\(outcome.err)")
    #expect(outcome.out.contains("  ✓ sign up and sign in ("))
    #expect(outcome.out.contains("uid is uid-smo\n"))
    #expect(outcome.out.hasSuffix("\n3 passed, 0 failed\n"))
    #expect(outcome.err.isEmpty)
  }

  @Test func aFailedCommandFailsItsTestAtThatLineAndTheNextTestRuns() async {
    let outcome = await RunHarness(
      """
      test "first"
      login nobody@example.com --password wrong-password
      whoami

      test "second"
      echo still running
      """
    ).run()
    #expect(outcome.exit == 1)
    #expect(outcome.out.contains("  ✗ first ("))
    #expect(outcome.out.contains("still running\n  ✓ second ("))
    #expect(outcome.out.hasSuffix("1 passed, 1 failed\n"))
    #expect(
      outcome.err == """
        error: 'login' failed: invalid_credentials
          --> t.auth:2:1
           |
         2 | login nobody@example.com --password ***
           | ^^^^^ Invalid email or password
           |       backend: invalid_credentials (HTTP 400)


        """)
  }

  @Test func expectAndAssertFailuresShowTypedValues() async {
    let outcome = await RunHarness(
      """
      test "ok expected"
      login x@example.com --password wrong-pass
      expect ok

      test "other code"
      login x@example.com --password wrong-pass
      expect error user_not_found

      test "typed"
      echo hi
      assert output == 1
      """
    ).run()
    #expect(outcome.exit == 1)
    #expect(
      outcome.err.contains(
        """
         3 | expect ok
           |        ^^ actual:   error <invalid_credentials> Invalid email or password
           |           expected: ok
        """))
    #expect(
      outcome.err.contains(
        """
         7 | expect error user_not_found
           |              ^^^^^^^^^^^^^^ actual:   error <invalid_credentials> Invalid email or password
           |                             expected: error <user_not_found>
        """))
    #expect(
      outcome.err.contains(
        """
        11 | assert output == 1
           |        ^^^^^^ actual:   string <hi>
           |               expected: number <1>
        """))
    #expect(outcome.out.hasSuffix("0 passed, 3 failed\n"))
  }

  @Test func aFileWithoutTestsIsOneTestNamedAfterTheFile() async {
    let outcome = await RunHarness(["smoke.auth": "echo hi\n"]).run()
    #expect(outcome.out.hasPrefix("smoke.auth\nhi\n  ✓ smoke ("))
    #expect(outcome.out.hasSuffix(" ms)\n\n1 passed, 0 failed\n"))
  }

  @Test func failingSetupSkipsTheTests() async {
    let outcome = await RunHarness("login a@example.com --password nope-nope\ntest \"x\"\necho x\n").run()
    #expect(outcome.exit == 1)
    #expect(outcome.out.contains("  ✗ setup ("))
    #expect(outcome.out.contains("  - x (skipped: setup failed)"))
    #expect(outcome.out.hasSuffix("0 passed, 1 failed, 1 skipped\n"))
  }

  @Test func skippedDefinitionsExplainLaterUndefinedVariables() async {
    let outcome = await RunHarness(
      "test \"a\"\nlogin a@example.com --password nope-nope\ncapture uid = user.id\ntest \"b\"\necho {{uid}}\n"
    ).run()
    #expect(outcome.err.contains("error: undefined variable 'uid'"))
    #expect(outcome.err.contains("it is set at line 3, which did not run"))
  }

  @Test func interpolatedChoicesAreJudgedAtRunTime() async {
    var harness = RunHarness("provider {{p}}\n")
    harness.options.variables = ["p": "supabse"]
    let outcome = await harness.run()
    #expect(outcome.exit == 1)
    #expect(outcome.err.contains("PROVIDER must be one of supabase, firebase, not 'supabse'"))
  }
}
