import Testing

@testable import ShellKit

@Suite("Shell help requests")
struct ReplHelpTests {
  @Test func dashDashHelpAndDashHShowTheCommandsHelp() async {
    let shell = ReplHarness(["login --help", "whoami -h", "reset confirm --help", "signin -h"])
    #expect(await shell.run() == 0)
    let out = shell.sink.standardOutput
    #expect(out.contains("Usage: login [EMAIL]"))
    #expect(out.contains("Usage: whoami [--claims]"))
    #expect(out.contains("Usage: reset confirm CODE-OR-LINK"))
    #expect(!shell.sink.standardError.contains("error"))
  }

  @Test func aQuotedDashHIsAnArgument() async {
    let shell = ReplHarness(["echo '-h'"])
    #expect(await shell.run() == 0)
    #expect(shell.sink.standardOutput.contains("-h"))
    #expect(!shell.sink.standardOutput.contains("Usage:"))
  }

  @Test func runPointsToSource() async {
    let shell = ReplHarness(["run smoke.auth"])
    _ = await shell.run()
    #expect(shell.sink.standardError.contains("in this shell use 'source FILE'"))
  }

  @Test func versionWorksInTheShell() async {
    let shell = ReplHarness(["version"])
    #expect(await shell.run() == 0)
    #expect(shell.sink.standardOutput.contains("authsh "))
  }
}
