import AuthTestSupport
import Foundation
import Testing

/// Issue 2 acceptance 8: `authsh --help` and `authsh help login` are complete (every command,
/// flag, exit code) and pinned as golden text.
@Suite struct HelpTests {
  let runner: BinaryRunner
  init() throws { runner = try BinaryRunner() }

  @Test func overviewListsEveryOneShotCommandAndExitCode() async throws {
    let help = try await runner.run(["--help"])
    #expect(help.status == 0)
    for command in [
      "signup", "login", "reset", "reset confirm", "whoami", "logout", "refresh", "status", "inbox", "run", "emulator",
      "completion",
    ] {
      #expect(help.stdout.contains("\n  \(command)"), "\(command)")
    }
    for text in [
      "--profile", "--json", "--verbose", "--timeout", "SUPABASE_URL", "FIREBASE_AUTH_EMULATOR_HOST", "4 not signed in",
      "64 usage",
    ] {
      #expect(help.stdout.contains(text), "\(text)")
    }
    if let diff = Snapshot.check(help.stdout, named: "help") { Issue.record(Comment(rawValue: diff)) }
  }

  /// The list of error codes in docs/exit-codes-and-json.md is the catalogue's, as `help errors` prints it.
  @Test func theExitCodesPageListsEveryErrorCode() async throws {
    let page = try String(contentsOfFile: runner.packageRoot + "/docs/exit-codes-and-json.md", encoding: .utf8)
    let listed = page.components(separatedBy: "Error codes (`expect error CODE`").dropFirst().first ?? ""
    let errors = try await runner.run(["help", "errors"])
    let codes = errors.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first }.filter {
      $0.contains("_")
    }
    #expect(codes.count > 30)
    for code in codes { #expect(listed.contains("`\(code)`"), "\(code) missing from docs/exit-codes-and-json.md") }
  }

  @Test func commandHelpThreeWays() async throws {
    let help = try await runner.run(["help", "login"])
    #expect(help.status == 0)
    #expect(try await runner.run(["login", "--help"]).stdout == help.stdout)
    #expect(try await runner.run(["--help", "login"]).stdout == help.stdout)
    if let diff = Snapshot.check(help.stdout, named: "help-login") { Issue.record(Comment(rawValue: diff)) }
    let confirm = try await runner.run(["help", "reset", "confirm"])
    #expect(confirm.stdout.hasPrefix("Usage: authsh reset confirm CODE-OR-LINK"))
  }

  @Test func usageErrorsExit64WithASuggestion() async throws {
    let typo = try await runner.run(["logn"])
    #expect(typo.status == 64)
    #expect(typo.stderr.contains("did you mean 'login'?"))
    let flag = try await runner.run(["whoami", "--clams"])
    #expect(flag.status == 64)
    #expect(flag.stderr.contains("did you mean '--claims'?"))
    #expect(try await runner.run(["inbox"]).status == 64)
    #expect(try await runner.run(["--version"]).stdout == "authsh 0.1.0\n")
  }
}
