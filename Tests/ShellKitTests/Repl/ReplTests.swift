import AuthCore
import Foundation
import Testing

@testable import ShellKit

@Suite("Repl transcripts")
struct ReplTests {
  @Test func promptShowsProviderProfileAndUser() async {
    let shell = ReplHarness(
      ["login ada@example.com", "quit"], accounts: ["ada@example.com": "correct-horse"], passwords: ["correct-horse"])
    #expect(await shell.run() == 0)
    #expect(shell.reader.prompts == ["supabase:default> ", "supabase:default ada@example.com> "])
  }

  @Test func promptWithNothingConfigured() async {
    let shell = ReplHarness([], configured: false)
    #expect(await shell.run() == 0)
    #expect(shell.reader.prompts == ["authsh> "])
  }

  @Test func nonInteractiveShellPrintsNoPromptAndReportsFailure() async {
    let shell = ReplHarness(["whoami"], interactive: false)
    #expect(await shell.run() == 1)
    #expect(shell.reader.prompts == ["", ""])
    #expect(shell.sink.standardError.contains("You are not signed in."))
  }

  @Test func aTerminalShellGreetsOncePipedInputDoesNot() async {
    let shell = ReplHarness(["status"])
    _ = await shell.run()
    #expect(shell.sink.standardOutput.hasPrefix("authsh \(AuthshVersion.current). Type \"help\" for help.\n"))
    let piped = ReplHarness(["status"], interactive: false)
    _ = await piped.run()
    #expect(!piped.sink.standardOutput.contains("Type \"help\""))
  }

  @Test func endOfInputExitsZero() async {
    let shell = ReplHarness(["whoami"])
    #expect(await shell.run() == 0)
  }

  @Test func quitAndExitStopReading() async {
    for word in ["quit", "exit"] {
      let shell = ReplHarness([word, "whoami"])
      #expect(await shell.run() == 0)
      #expect(shell.reader.lines == ["whoami"])
    }
  }

  @Test func unknownCommandSuggestsTheClosest() async {
    let shell = ReplHarness(["logn ada@example.com"])
    _ = await shell.run()
    let err = shell.sink.standardError
    #expect(err.contains("error: unknown command 'logn'"))
    #expect(err.contains("  logn ada@example.com\n  ^^^^ did you mean 'login'?"))
  }

  @Test func unknownCommandWithoutSuggestionPointsToHelp() async {
    let shell = ReplHarness(["frobnicate"])
    _ = await shell.run()
    #expect(shell.sink.standardError.contains("Type 'help' to list the commands."))
  }

  @Test func usageErrorsShowTheWordAndTheUsage() async {
    let shell = ReplHarness(["logout --scope everywhere"])
    _ = await shell.run()
    let err = shell.sink.standardError
    #expect(err.contains("error: --scope must be one of local, global, others, not 'everywhere'"))
    #expect(err.contains("usage: logout [--scope SCOPE]"))
  }

  @Test func unterminatedQuoteIsAnError() async {
    let shell = ReplHarness(["echo 'oops"])
    _ = await shell.run()
    #expect(shell.sink.standardError.contains("error: unterminated single quote"))
  }

  @Test func oneShotOnlyCommandsAreExplained() async {
    let shell = ReplHarness(["completion bash"])
    _ = await shell.run()
    #expect(
      shell.sink.standardError.contains("works only from your system shell (bash, zsh), as `authsh completion …`"))
  }

  @Test func helpListsCommands() async {
    let shell = ReplHarness(["help", "help login"])
    _ = await shell.run()
    #expect(shell.sink.standardOutput.contains("login"))
    #expect(shell.sink.standardOutput.contains("Sign in with e-mail and password"))
  }

  @Test func sessionExpiredShowsTheInactivityBannerInYellow() async {
    let shell = ReplHarness(
      ["login ada@example.com", "whoami"], accounts: ["ada@example.com": "correct-horse"], passwords: ["correct-horse"]
    ) { $0.style = Style(color: true) }
    shell.provider.userError = AuthError(.sessionExpired)
    shell.provider.refreshError = AuthError(.sessionExpired, providerCode: "refresh_token_not_found")
    _ = await shell.run()
    #expect(
      shell.sink.standardError.contains(
        "\u{1B}[33m⚠ You were logged out due to inactivity. Please log in again.\u{1B}[0m"))
  }

  @Test func jsonFlagPrintsTheResultModel() async {
    let shell = ReplHarness(["status --json"])
    _ = await shell.run()
    #expect(shell.sink.standardOutput.contains("\"command\""))
    #expect(shell.sink.standardOutput.contains("\"status\""))
  }
}
