import AuthCore
import Foundation
import Testing

@testable import ShellKit

@Suite("Repl: retry, passwords, Ctrl-C, source, rc")
struct ReplRetryTests {
  @Test func retryRunsTheLastFailedCommandAgainAndAsksForThePasswordAgain() async {
    let shell = ReplHarness(
      ["login ada@example.com", "retry", "status"], accounts: ["ada@example.com": "correct-horse"],
      passwords: ["wrong-password", "correct-horse"])
    _ = await shell.run()
    #expect(shell.sink.standardError.contains("Invalid email or password"))
    #expect(shell.sink.standardError.contains("retrying: login ada@example.com"))
    #expect(shell.provider.signInAttempts.map(\.password) == ["wrong-password", "correct-horse"])
    #expect(shell.sink.standardOutput.contains("ada@example.com"))
    #expect(shell.context.lastFailed == nil)
  }

  @Test func retryWithNothingFailed() async {
    let shell = ReplHarness(["retry"])
    _ = await shell.run()
    #expect(shell.sink.standardError.contains("nothing to retry"))
  }

  @Test func retryKeepsTheParsedInvocationAcrossOtherCommands() async {
    let shell = ReplHarness(["logout --scope local", "status", "retry"])
    _ = await shell.run()
    #expect(shell.sink.standardError.contains("retrying: logout --scope local"))
  }

  @Test func afterInvalidCredentialsNothingOfThePasswordIsKept() async {
    let shell = ReplHarness(
      ["login ada@example.com --password not-the-password", "retry"], accounts: ["ada@example.com": "correct-horse"],
      passwords: ["correct-horse"])
    _ = await shell.run()
    let last = shell.provider.signInAttempts.last
    #expect(last?.password == "correct-horse")
    // The refused line is neither recalled nor written; `retry` asked for the password again.
    #expect(!shell.reader.history.contains { $0.line.contains("not-the-password") })
    #expect(!shell.historyFileText.contains("not-the-password"))
    #expect(!shell.repl.sessionLines.joined().contains("not-the-password"))
  }

  @Test func passwordOnTheLineWarnsOnce() async {
    let shell = ReplHarness(
      ["login ada@example.com --password correct-horse"], accounts: ["ada@example.com": "correct-horse"])
    _ = await shell.run()
    let warnings = shell.sink.standardError.components(separatedBy: "warning:").count - 1
    #expect(warnings == 1)
    #expect(shell.sink.standardError.contains("stays out of the history file"))
  }

  @Test func ctrlCCancelsTheRunningCommandAndTheShellGoesOn() async {
    let interrupts = Interrupts()
    let shell = ReplHarness(
      ["login ada@example.com --password correct-horse", "echo still here"],
      accounts: ["ada@example.com": "correct-horse"]
    ) {
      $0.interrupts = interrupts
    }
    shell.provider.delay = .seconds(30)
    // Press Ctrl-C while the request is in flight (however long a loaded machine takes to start
    // it), and never afterwards, so the next line is untouched.
    let provider = shell.provider
    let presses = Task {
      while !Task.isCancelled {
        if provider.isWaiting { interrupts.fire() }
        try? await Task.sleep(for: .milliseconds(50))
      }
    }
    #expect(await shell.run() == 0)
    presses.cancel()
    #expect(shell.sink.standardError.contains("Cancelled."))
    #expect(shell.sink.standardOutput.contains("still here"))
  }

  @Test func spinnerShowsLoadingWordsOnlyWhenInteractive() async {
    let spinner = RecordingSpinner()
    let shell = ReplHarness(["whoami", "status"]) { $0.spinner = spinner }
    _ = await shell.run()
    #expect(spinner.events == ["start Loading the user from 127.0.0.1:9999…", "stop"])
    let quiet = RecordingSpinner()
    let piped = ReplHarness(["whoami"], interactive: false) { $0.spinner = quiet }
    _ = await piped.run()
    #expect(quiet.events.isEmpty)
  }

  @Test func sourceRunsThroughTheInjectedClosure() async {
    let seen = Guarded<[String]>([])
    let shell = ReplHarness(["source smoke.auth"]) { options in
      options.sourceFile = { path in
        seen.update { $0.append(path) }
        return 1
      }
    }
    _ = await shell.run()
    #expect(seen[\.self] == ["smoke.auth"])
  }

  /// `source .env` would print each of its lines (a service key, a password) back as an unknown
  /// command: only .auth scripts are read, as `include` in a script.
  @Test func sourceReadsNothingButAnAuthScript() async {
    let seen = Guarded<[String]>([])
    let shell = ReplHarness(["source .env", "source /etc/passwd"]) { options in
      options.sourceFile = { path in
        seen.update { $0.append(path) }
        return 0
      }
    }
    _ = await shell.run()
    #expect(seen[\.self].isEmpty)
    #expect(shell.sink.standardError.contains("source needs an .auth script"))
  }

  @Test func startupFileRunsBeforeTheFirstPromptUnlessNoRC() async throws {
    for noRC in [false, true] {
      let shell = ReplHarness(["quit"]) { $0.noRC = noRC }
      try FileManager.default.createDirectory(
        atPath: shell.directory + "/config/authsh", withIntermediateDirectories: true)
      try "# greeting\necho hello from rc\n".write(
        toFile: shell.directory + "/config/authsh/rc", atomically: true, encoding: .utf8)
      _ = await shell.run()
      #expect(shell.sink.standardOutput.contains("hello from rc") == !noRC)
      #expect(shell.repl.sessionLines == ["quit"])
    }
  }
}

final class RecordingSpinner: Spinner {
  private let recorded = Guarded<[String]>([])
  var events: [String] { recorded[\.self] }
  func start(_ text: String) { recorded.update { $0.append("start " + text) } }
  func stop() { recorded.update { $0.append("stop") } }
}
