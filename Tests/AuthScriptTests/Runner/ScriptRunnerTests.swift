import AuthCore
import Foundation
import ShellKit
import Testing

@testable import AuthScript

@Suite struct ScriptRunnerTests {
  @Test func exitCode0WhenEveryTestPasses() async {
    #expect(await RunHarness("echo hi\n").run().exit == 0)
  }

  @Test func exitCode1WhenATestFails() async {
    #expect(await RunHarness("whoami\n").run().exit == 1)
  }

  @Test func exitCode2OnParseOrCheckErrorsAndNothingIsSent() async {
    let harness = RunHarness([
      "a.auth": "signup a@example.com --password pw-123456\n", "b.auth": "logn x\nassert user.email =~ 1\n",
    ])
    let outcome = await harness.run()
    #expect(outcome.exit == 2)
    #expect(harness.backend.commands.isEmpty)
    #expect(outcome.out.isEmpty)
    #expect(outcome.err.contains("error: unknown command 'logn'\n  --> b.auth:1:1"))
    #expect(outcome.err.contains("error: unknown predicate '=~'\n  --> b.auth:2:19"))
    #expect(outcome.err.hasSuffix("2 errors; nothing was run\n"))
  }

  @Test func exitCode3WhenTheBackendIsUnreachable() async {
    let outcome = await RunHarness("test \"a\"\nlogin a@down.test --password pw-123456\ntest \"b\"\nwhoami\n").run()
    #expect(outcome.exit == 3)
    #expect(outcome.err.contains("'login' failed: network_unreachable"))
  }

  @Test func anExpectedBackendFailureIsNotExit3() async {
    #expect(
      await RunHarness("login a@down.test --password pw-123456\nexpect error network_unreachable\n").run().exit == 0)
  }

  @Test func missingFilesAreCheckErrors() async {
    let outcome = await RunHarness([:]).run(["nope.auth"])
    #expect(outcome.exit == 2)
    #expect(outcome.err.hasPrefix("error: cannot read 'nope.auth'\n  no such file\n"))
  }

  @Test func parallelOutputIsGroupedInFileOrder() async {
    var files: [String: String] = [:]
    for index in 0..<6 {
      files["f\(index).auth"] = "test \"t\(index)\"\necho \(index)-a\nsleep 1ms\necho \(index)-b\n"
    }
    var harness = RunHarness(files)
    harness.options.jobs = 4
    let outcome = await harness.run()
    #expect(outcome.exit == 0)
    let lines = outcome.out.split(separator: "\n").filter { !$0.contains("✓") }
    let expected = (0..<6).flatMap { ["f\($0).auth", "\($0)-a", "\($0)-b"] } + ["6 passed, 0 failed"]
    #expect(lines.map(String.init) == expected)
  }

  @Test func failFastStopsTheRunAndSkipsTheRest() async {
    var harness = RunHarness([
      "a.auth": "test \"a1\"\nwhoami\ntest \"a2\"\necho x\n", "b.auth": "test \"b1\"\necho y\n",
    ])
    harness.options.failFast = true
    let outcome = await harness.run()
    #expect(outcome.exit == 1)
    #expect(outcome.out.contains("  - a2 (skipped: stopped by --fail-fast)"))
    #expect(outcome.out.contains("  - b1 (skipped: stopped by --fail-fast)"))
    #expect(outcome.out.hasSuffix("0 passed, 1 failed, 2 skipped\n"))
  }

  @Test func variablesFromFlagsAndEnvironmentAreTyped() async {
    var harness = RunHarness(
      "echo {{who}} {{n}}\nassert output == \"ada 42\"\nlet m = {{n}}\necho {{m}}\nassert output == \"42\"\n")
    harness.options.variables = ["n": "42"]
    harness.environment["AUTHSH_VAR_who"] = "ada"
    harness.environment["AUTHSH_VAR_n"] = "7"
    #expect(await harness.run().exit == 0)
  }

  @Test func asciiMarksAndNoColourByDefault() async {
    var harness = RunHarness("test \"a\"\necho x\ntest \"b\"\nwhoami\n")
    harness.options.style = Style(color: false, unicode: false)
    let outcome = await harness.run()
    #expect(outcome.out.contains("  ok a ("))
    #expect(outcome.out.contains("  FAIL b ("))
    #expect(!outcome.out.contains("\u{1B}["))
  }

  @Test func runSourcePrintsEachCommandLikeTheShell() async {
    let backend = FakeBackend()
    let sink = CapturingSink()
    let context = makeTestContext()
    let code = await ScriptRunner.runSource(
      text: "signup a@example.com --password pw-123456\nwhoami\necho done\n", name: "<stdin>", context: context,
      output: sink, executor: backend.executor)
    #expect(code == 0)
    #expect(sink.standardOutput == "a@example.com\na@example.com\ndone\n")
    let failing = CapturingSink()
    let failed = await ScriptRunner.runSource(
      text: "logout\nwhoami\nwhoami\n", name: "<stdin>", context: makeTestContext(), output: failing,
      executor: backend.executor)
    #expect(failed == 4)  // "not signed in", as a one-shot whoami ends
    #expect(backend.commands.suffix(3) == ["echo", "logout", "whoami"])
    let broken = await ScriptRunner.runSource(
      text: "whoam\n", name: "<stdin>", context: makeTestContext(), output: CapturingSink(), executor: backend.executor)
    #expect(broken == 2)
  }
}

@Suite struct ScriptRunnerSourceTests {
  @Test func sourcedFilesResolveIncludesBesideThemAndPrintTestLinesOnlyWithTests() async {
    let backend = FakeBackend()
    let sink = CapturingSink()
    let code = await ScriptRunner.runSource(
      text: "include lib/hello.auth\ntest \"greets\"\nassert output == \"hello\"\n", name: "/scripts/main.auth",
      context: makeTestContext(), output: sink, executor: backend.executor,
      readFile: { path in
        guard path == "/scripts/lib/hello.auth" else { throw CocoaError(.fileNoSuchFile) }
        return "echo hello\n"
      })
    #expect(code == 0)
    #expect(sink.standardOutput.hasPrefix("hello\n  ✓ greets ("))
    #expect(sink.standardOutput.hasSuffix("1 passed, 0 failed\n"))
  }

  @Test func anExpectAfterAssertionsStillHandlesTheFailedCommand() async {
    let outcome = await RunHarness(
      "login x@example.com --password wrong-pass\nassert error.code == \"invalid_credentials\"\nexpect error invalid_credentials\n"
    ).run()
    #expect(outcome.exit == 0, "\(outcome.err)")
  }
}
