import AuthCore
import Foundation
import JSONKit
import Testing

@testable import ShellKit

@Suite("Repl: holes, prompts for what is missing, rc lines")
struct ReplFinishTests {
  @Test func holesAreFilledFromThePreviousResultAndTheLineIsKeptAsTyped() async {
    let seen = Guarded<[String]>([])
    let shell = ReplHarness(
      ["login ada@example.com", "echo between", "echo {{session.user.email}}", "history"],
      accounts: ["ada@example.com": "correct-horse"], passwords: ["correct-horse"]
    ) { options in
      options.interpolate = { words, line, previous in
        // A stand-in for the script engine: fills one known hole from the model it is given.
        let email = previous?["user"]?["email"]?.string ?? previous?["session"]?["user"]?["email"]?.string
        seen.update { $0.append(previous?["command"]?.string ?? "none") }
        return .success(
          words.map { word in
            var filled = word
            filled.text = word.text.replacingOccurrences(of: "{{session.user.email}}", with: email ?? "?")
            return filled
          })
      }
    }
    _ = await shell.run()
    #expect(seen[\.self] == ["login"], "echo gave no result: the login is still the previous one")
    #expect(shell.sink.standardOutput.contains("between\nada@example.com\n"))
    #expect(shell.repl.sessionLines.contains("echo {{session.user.email}}"))
    #expect(shell.historyFileText.contains("echo {{session.user.email}}\n"))
  }

  @Test func aHoleThatCannotBeFilledRunsNothing() async {
    let ran = Guarded<[String]>([])
    let shell = ReplHarness(["whoami {{nosuch}}"]) { options in
      options.interpolate = { _, _, _ in
        .failure(InterpolationError("undefined variable 'nosuch'", note: "a note", start: 7, end: 17))
      }
      options.execute = { invocation, _, _ in
        ran.update { $0.append(invocation.spec.name) }
        return CommandResult(command: invocation.spec.name)
      }
    }
    _ = await shell.run()
    #expect(ran[\.self].isEmpty)
    #expect(
      shell.sink.standardError
        == "error: undefined variable 'nosuch'\n  whoami {{nosuch}}\n         ^^^^^^^^^^ a note\n")
  }

  @Test func errorsOfTheStartupFileNameItsLine() async throws {
    let shell = ReplHarness(["quit"])
    try FileManager.default.createDirectory(
      atPath: shell.directory + "/config/authsh", withIntermediateDirectories: true)
    try "# comment\necho ok\nlogn ada@example.com\n\nsleep 2x\n".write(
      toFile: shell.directory + "/config/authsh/rc", atomically: true, encoding: .utf8)
    _ = await shell.run()
    let err = shell.sink.standardError
    #expect(err.contains("error: unknown command 'logn'\n  --> rc:3\n  logn ada@example.com\n"))
    #expect(err.contains("\n  --> rc:5\n  sleep 2x\n"))
    #expect(shell.sink.standardOutput.contains("ok\n"))
  }

  @Test func typedLinesAfterTheStartupFileAreNotLocated() async throws {
    let shell = ReplHarness(["logn x"])
    try FileManager.default.createDirectory(
      atPath: shell.directory + "/config/authsh", withIntermediateDirectories: true)
    try "echo ok\n".write(toFile: shell.directory + "/config/authsh/rc", atomically: true, encoding: .utf8)
    _ = await shell.run()
    #expect(!shell.sink.standardError.contains("-->"))
  }

  @Test func aMissingEmailAndNameAreAskedForOnATerminal() async {
    let prompter = ScriptedPrompter(
      readsText: true,
      [
        "ada@example.com", "Ada", "correct-horse-1", "correct-horse-1", "ada@example.com", "correct-horse-1",
      ])
    let shell = ReplHarness(["signup", "logout", "login"], prompter: prompter)
    _ = await shell.run()
    #expect(prompter.prompts == ["Email: ", "Name: ", "New password: ", "Confirm password: ", "Email: ", "Password: "])
    #expect(shell.reader.prompts.last == "supabase:default ada@example.com> ")
    #expect(!shell.sink.standardError.contains("error"))
  }

  @Test func anUnsetPasswordVariableIsSaidBeforeAnythingIsAsked() async {
    // `reset` takes no password: its missing e-mail is asked for as before.
    let prompter = ScriptedPrompter(readsText: true, ["ada@example.com", "Ada"])
    let shell = ReplHarness(
      [
        "signup --password-env NOT_SET_ANYWHERE", "login ada@example.com --password-env NOPE", "reset",
      ], prompter: prompter)
    _ = await shell.run()
    #expect(prompter.prompts == ["Email: "])
    #expect(shell.sink.standardError.contains("Environment variable NOT_SET_ANYWHERE is not set."))
    #expect(shell.sink.standardError.contains("Environment variable NOPE is not set."))
  }

  @Test func withoutATerminalTheMissingEmailIsStillAnError() async {
    let shell = ReplHarness(["login"], passwords: ["x"])  // a prompter that cannot echo (as before)
    _ = await shell.run()
    #expect(shell.sink.standardError.contains("Email is required"))
  }

  @Test func aMistypedConfirmationAsksAgainUpToThreeTimes() async {
    let prompter = ScriptedPrompter(
      readsText: true,
      [
        "correct-horse-1", "correct-horse-2", "correct-horse-1", "correct-horse-1",
        "a-password-1", "b-password-1", "a-password-1", "b-password-1", "a-password-1", "b-password-1",
      ])
    let shell = ReplHarness(
      ["signup ada@example.com --name Ada", "signup bo@example.com --name Bo"], prompter: prompter)
    _ = await shell.run()
    #expect(
      prompter.prompts.prefix(4) == [
        "New password: ", "Confirm password: ", "Passwords do not match. Try again.\nNew password: ",
        "Confirm password: ",
      ])
    #expect(shell.reader.prompts.contains("supabase:default ada@example.com> "))
    #expect(prompter.prompts.count == 10)
    #expect(!shell.reader.prompts.contains("supabase:default bo@example.com> "))
    #expect(shell.sink.standardError.contains("Passwords do not match"))
  }

  @Test func usageShowsRequiredFlagsWithoutBrackets() {
    #expect(
      CommandTable.named("signup")?.usage()
        == "signup [EMAIL] --name NAME [--password VALUE] [--password-env VAR] [--password-stdin]")
  }

  @Test func spinnerWordsNameTheHost() {
    let local = Target(provider: .supabase, profile: "default", url: "http://127.0.0.1:54321/auth/v1", key: "k")
    let hosted = Target(provider: .supabase, profile: "default", url: "https://abcd.supabase.co/auth/v1", key: "k")
    let emulated = Target(
      provider: .firebase, profile: "default", url: "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1", key: "k",
      firebaseEmulatorHost: "127.0.0.1:9099")
    let login = CommandTable.named("login")!
    #expect(LoadingText.text(for: login, target: local) == "Signing in to 127.0.0.1:54321…")
    #expect(LoadingText.text(for: login, target: hosted) == "Signing in to abcd.supabase.co…")
    #expect(LoadingText.text(for: login, target: emulated) == "Signing in to 127.0.0.1:9099…")
    #expect(LoadingText.text(for: login, target: nil) == "Signing in…")
    #expect(LoadingText.text(for: CommandTable.named("status")!, target: local) == nil)
  }
}
