import AuthCore
import Foundation
import JSONKit
import Testing

@testable import AuthScript

/// An outage (unreachable, timeout, 5xx, malformed) that the script does not `expect error` by its
/// code is an *error* of the test, not a failure: exit 3, JUnit `<error>`, TAP `# error`, JSON
/// `outcome: "error"`, and `error: CODE` on the console line — whatever `expect` or `assert` follows.
@Suite struct BackendErrorTests {
  @Test func expectOkAfterAnOutageIsAnErrorNotAnAssertionFailure() async {
    let outcome = await RunHarness("test \"t\"\nlogin a@down.test --password pw-123456\nexpect ok\n").run()
    #expect(outcome.exit == 3, "\(outcome.err)")
    #expect(outcome.out.contains("  ✗ t ("))
    #expect(outcome.out.contains(") error: network_unreachable\n"))
    #expect(outcome.out.hasSuffix("\n0 passed, 1 failed (1 error)\n"))
    #expect(
      outcome.err == """
        error: 'login' failed: network_unreachable
          --> t.auth:2:1
           |
         2 | login a@down.test --password ***
           | ^^^^^ No internet connection. Check your network.
           |       line 3: assertion failed, expected ok


        """)
  }

  @Test(arguments: [
    ("a@down.test", "expect error invalid_credentials"), ("a@slow.test", "expect error invalid_credentials"),
    ("a@5xx.test", "expect ok"), ("a@slow.test", "expect error server_error"),
    ("a@5xx.test", "assert error.code == \"invalid_credentials\"\nexpect error invalid_credentials"),
    ("a@down.test", "capture uid = user.id\nexpect ok"),
  ])
  func anyCheckOfAnUnexpectedOutageErrors(_ address: String, _ checks: String) async {
    let outcome = await RunHarness("login \(address) --password pw-123456\n\(checks)\n").run()
    #expect(outcome.exit == 3, "\(checks)\n\(outcome.err)")
    #expect(outcome.out.contains("(1 error)"))
  }

  @Test(arguments: [
    ("a@down.test", "network_unreachable"), ("a@slow.test", "timeout"), ("a@5xx.test", "server_error"),
  ])
  func anOutageTheScriptExpectsByItsCodePasses(_ address: String, _ code: String) async {
    let script = "login \(address) --password pw-123456\nassert error.code == \"\(code)\"\nexpect error \(code)\n"
    let outcome = await RunHarness(script).run()
    #expect(outcome.exit == 0, "\(outcome.err)")
    #expect(outcome.out.hasSuffix("1 passed, 0 failed\n"))
  }

  @Test func aFailedAssertionAfterAnExpectedOutageIsAPlainFailure() async {
    let script = "login a@5xx.test --password pw-123456\nexpect error server_error\nassert error.status == 500\n"
    let outcome = await RunHarness(script).run()
    #expect(outcome.exit == 1, "\(outcome.err)")
    #expect(outcome.err.hasPrefix("error: assertion failed\n"))
    #expect(!outcome.out.contains("error:"))
  }

  @Test func aRunWithFailuresAndErrorsExits3AndCountsBoth() async {
    let script = """
      test "regression"
      whoami
      expect ok
      test "outage"
      login a@down.test --password pw-123456
      expect error invalid_credentials
      test "fine"
      echo ok
      """
    let outcome = await RunHarness(script).run()
    #expect(outcome.exit == 3)
    #expect(outcome.out.hasSuffix("\n1 passed, 2 failed (1 error)\n"))
    #expect(outcome.out.contains("  ✗ regression (") && !outcome.out.contains(") error: not_authenticated"))
  }

  @Test func everyReportSaysErrorForTheOutageAndFailureForTheRegression() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-errors-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var harness = RunHarness(
      "test \"regression\"\nwhoami\nexpect ok\ntest \"outage\"\nlogin a@down.test --password pw-123456\nexpect ok\n")
    harness.options.reportJUnit = directory.appendingPathComponent("junit.xml").path
    harness.options.reportTAP = directory.appendingPathComponent("tap.txt").path
    harness.options.reportJSON = directory.appendingPathComponent("report.json").path
    let outcome = await harness.run()
    #expect(outcome.exit == 3)
    let read = { (name: String) in try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) }

    let junit = try read("junit.xml")
    #expect(junit.contains("tests=\"2\" failures=\"1\" errors=\"1\""))
    #expect(junit.contains("<error message=\"&apos;login&apos; failed: network_unreachable\" type=\"backend\">"))
    #expect(junit.contains("<failure message=\"assertion failed\" type=\"assertion\">"))

    let tap = try TAP13.parse(try read("tap.txt"))
    #expect(tap.points.map(\.ok) == [false, false])
    #expect(tap.points.map(\.directive) == [nil, "error"])
    #expect(tap.points.map { $0.yaml["severity"] } == ["\"fail\"", "\"error\""])

    let report = try JSON.parse(try read("report.json"))
    let tests = report["files"]?[0]?["tests"]
    #expect(tests?[0]?["status"]?.string == "failed")
    #expect(tests?[0]?["outcome"]?.string == "failed")
    #expect(tests?[1]?["status"]?.string == "failed")
    #expect(tests?[1]?["outcome"]?.string == "error")
    #expect(tests?[1]?["failure"]?["kind"]?.string == "backend")
    #expect(tests?[1]?["failure"]?["expected"]?.string == "ok")
    #expect(report["summary"]?["errors"]?.int == 1)
    #expect(report["summary"]?["exit_code"]?.int == 3)
  }
}

@Suite struct BackendErrorIncludeTests {
  @Test func theNoteNamesTheFileOfACheckInAnIncludedScript() async {
    let outcome = await RunHarness([
      "t.auth": "login a@down.test --password pw-123456\ninclude check.auth\n", "check.auth": "expect ok\n",
    ])
    .run(["t.auth"])
    #expect(outcome.exit == 3)
    #expect(outcome.err.contains("check.auth:1: assertion failed, expected ok\n"), "\(outcome.err)")
  }
}
