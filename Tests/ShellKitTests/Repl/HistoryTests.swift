import AuthCore
import Foundation
import Testing

@testable import ShellKit

@Suite("History: what is kept, where, and how")
struct HistoryTests {
  @Test func plainLinesGoToTheFileWithMode0600InA0700Directory() async throws {
    let shell = ReplHarness(["whoami", "status"])
    _ = await shell.run()
    #expect(shell.historyFileText == "whoami\nstatus\n")
    let file = try FileManager.default.attributesOfItem(atPath: shell.historyPath)
    #expect((file[.posixPermissions] as? Int) == 0o600)
    let directory = try FileManager.default.attributesOfItem(atPath: shell.directory + "/state/authsh")
    #expect((directory[.posixPermissions] as? Int) == 0o700)
  }

  @Test func linesCarryingASecretStayInMemoryOnly() async {
    let shell = ReplHarness(
      ["login ada@example.com --password correct-horse", "provider supabase --key sekrit-key-1", "whoami"],
      accounts: ["ada@example.com": "correct-horse"])
    _ = await shell.run()
    #expect(shell.historyFileText == "whoami\n")
    #expect(
      shell.reader.history.map(\.line) == [
        "login ada@example.com --password correct-horse", "provider supabase --key sekrit-key-1", "whoami",
      ])
    #expect(shell.reader.history.map(\.persisted) == [false, false, true])
  }

  @Test func linesStartingWithASpaceAreNotKept() async {
    let shell = ReplHarness([" whoami", "status"])
    _ = await shell.run()
    #expect(shell.historyFileText == "status\n")
    #expect(shell.reader.history.map(\.line) == ["status"])
    #expect(shell.repl.sessionLines == ["status"])
  }

  @Test func unparsableLinesNamingASecretFlagStayOutOfTheFile() async {
    let shell = ReplHarness(["logn ada@example.com --password hunter2hunter2", "login --password=abc extra words"])
    _ = await shell.run()
    #expect(!shell.historyFileText.contains("hunter2"))
    #expect(!shell.historyFileText.contains("abc"))
  }

  @Test func historyCommandListsThisSessionMasked() async {
    let shell = ReplHarness(
      ["whoami", "login ada@example.com --password correct-horse", "history"],
      accounts: ["ada@example.com": "correct-horse"])
    _ = await shell.run()
    #expect(
      shell.sink.standardOutput.contains("    1  whoami\n    2  login ada@example.com --password ***\n    3  history\n")
    )
    #expect(!shell.sink.standardOutput.contains("correct-horse"))
  }

  @Test func previousSessionsAreRecalledButNotListed() async throws {
    let first = ReplHarness(["whoami"])
    _ = await first.run()
    var options = ReplOptions.standard(environment: [
      "HOME": first.directory, "XDG_STATE_HOME": first.directory + "/state",
    ])
    options.rcFile = nil
    let reader = ScriptedLineReader(["history"])
    let sink = CapturingSink()
    _ = await Repl(context: first.context, reader: reader, output: sink, options: options).run()
    #expect(reader.history.first?.line == "whoami")
    #expect(sink.standardOutput == ReplRendering.greeting + "    1  history\n")
  }

  @Test func consecutiveDuplicatesAreRecalledOnce() async {
    let shell = ReplHarness(["status", "status", "whoami"])
    _ = await shell.run()
    #expect(shell.reader.history.map(\.line) == ["status", "whoami"])
  }

  @Test func historyFileLocation() {
    let paths = Paths(environment: ["HOME": "/home/ada"])
    #expect(HistoryFile.resolve(environment: [:], paths: paths)?.path == "/home/ada/.local/state/authsh/history")
    #expect(HistoryFile.resolve(environment: ["AUTHSH_HISTFILE": "/tmp/h"], paths: paths)?.path == "/tmp/h")
    #expect(HistoryFile.resolve(environment: ["AUTHSH_HISTFILE": "/dev/null"], paths: paths) == nil)
    #expect(HistoryFile.resolve(environment: ["AUTHSH_HISTFILE": ""], paths: paths) == nil)
  }

  @Test func disabledHistoryWritesNothing() async {
    let shell = ReplHarness(["whoami"]) { $0.history = nil }
    _ = await shell.run()
    #expect(!FileManager.default.fileExists(atPath: shell.historyPath))
  }

  @Test func masking() {
    #expect(HistoryPolicy.masked("login a@b.co --password 'x y z'") == "login a@b.co --password ***")
    #expect(HistoryPolicy.masked("login a@b.co --password=hunter22") == "login a@b.co --password=***")
    #expect(
      HistoryPolicy.masked("provider firebase --key AIzaXYZ --url http://x")
        == "provider firebase --key *** --url http://x")
    #expect(HistoryPolicy.masked("  whoami  ") == "whoami")
  }

  @Test func recoveryLinksAndCodesAreCredentials() {
    let link = "http://127.0.0.1:54321/auth/v1/verify?token=abc123&type=recovery"
    #expect(
      HistoryPolicy.decide("reset confirm '\(link)'", invocation: parsed("reset confirm '\(link)'")) == .memoryOnly)
    #expect(
      HistoryPolicy.decide(
        "reset confirm 123456 --email a@b.co", invocation: parsed("reset confirm 123456 --email a@b.co")) == .memoryOnly
    )
    // Lines that did not parse: a bad flag, or the link pasted on its own.
    #expect(HistoryPolicy.mentionsSecret("reset confirm 123456 --emial a@b.co"))
    #expect(HistoryPolicy.mentionsSecret(link))
    #expect(HistoryPolicy.mentionsSecret("https://x.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=XYZ"))
    #expect(!HistoryPolicy.mentionsSecret("reset ada@example.com"))
    #expect(!HistoryPolicy.mentionsSecret("reset confirm --help"))
    #expect(!HistoryPolicy.mentionsSecret("echo http://example.com/?page=2"))
    #expect(HistoryPolicy.masked("reset confirm '\(link)' --email a@b.co") == "reset confirm *** --email a@b.co")
    #expect(
      HistoryPolicy.masked("reset confirm --email a@b.co 123456 --password=pw12")
        == "reset confirm --email a@b.co *** --password=***")
    #expect(HistoryPolicy.masked("  \(link)") == "***")
  }

  @Test func aConfirmedResetStaysOutOfTheFile() async {
    let shell = ReplHarness([
      "reset confirm 123456 --email ada@example.com --password new-password-1", "reset confirm 654321 --emial x",
      "history", "whoami",
    ])
    _ = await shell.run()
    #expect(shell.historyFileText == "history\nwhoami\n")
    #expect(
      shell.sink.standardOutput.contains(
        "    1  reset confirm *** --email ada@example.com --password ***\n    2  reset confirm *** --emial ***\n"))
  }

  private func parsed(_ line: String) -> Invocation? {
    guard let words = try? WordSplitter.split(line),
      case .success(let invocation) = InvocationParser.parse(words, surface: .repl)
    else {
      return nil
    }
    return invocation
  }

  @Test func withoutSecretsDropsPasswordFlagsAndWords() throws {
    let words = try WordSplitter.split("login ada@example.com --password hunter22 --remember")
    guard case .success(let invocation) = InvocationParser.parse(words, surface: .repl) else {
      Issue.record("did not parse")
      return
    }
    let stripped = HistoryPolicy.withoutSecrets(invocation)
    #expect(stripped.flags["--password"] == nil)
    #expect(stripped[.remember])
    #expect(stripped.words.map(\.text) == ["ada@example.com", "--remember"])
    #expect(!stripped.carriesSecret)
  }
}

@Suite("History: mistyped secret flags")
struct MistypedSecretFlagTests {
  @Test func aLineWithAMistypedPasswordFlagStaysOutOfTheFile() async {
    let lines = [
      "user create x@example.com -p hunter22secret", "login ada@example.com --pass hunter33secret",
      "login ada@example.com --passwrd=hunter44secret", "signup ada@example.com -phunter55secret",
      "user create x@example.com --frobnicate hunter66secret", "whoami",
    ]
    let shell = ReplHarness(lines)
    _ = await shell.run()
    #expect(shell.historyFileText == "whoami\n")
    for secret in ["hunter22secret", "hunter33secret", "hunter44secret", "hunter55secret", "hunter66secret"] {
      #expect(!shell.historyFileText.contains(secret))
      #expect(!shell.repl.sessionLines.joined().contains(secret), "\(secret) in `history`")
    }
    // Recalled with Up in this session only, as a line with a known secret flag.
    #expect(shell.reader.history.filter(\.persisted).map(\.line) == ["whoami"])
  }

  /// A password typed as an argument of a command that takes one by flag or prompt, or on its
  /// own at the prompt: never written, nor echoed back in the error or `history`.
  @Test func aPasswordTypedWhereNoArgumentGoesStaysOutOfTheFile() async {
    let lines = [
      "login ada@example.com Hunter2-Secret1", "signup bob@example.com Hunter2-Secret2",
      "user set-password ada@example.com Hunter2-Secret3", "Hunter2-Secret4", "whoami", "usr list", "user show --jsn",
    ]
    let shell = ReplHarness(lines)
    _ = await shell.run()
    #expect(shell.historyFileText == "whoami\nuser show --jsn\n")
    for secret in ["Hunter2-Secret1", "Hunter2-Secret2", "Hunter2-Secret3"] {
      #expect(!shell.sink.standardError.contains(secret), "\(secret) echoed")
      #expect(!shell.repl.sessionLines.joined().contains(secret), "\(secret) in `history`")
    }
    #expect(shell.sink.standardError.contains("unexpected argument '***' for 'login'"))
    // Recalled with Up in this session only.
    #expect(shell.reader.history.map(\.line).contains("Hunter2-Secret4"))
    #expect(HistoryPolicy.masked("login ada@example.com Hunter2-Secret1") == "login ada@example.com ***")
  }

  @Test func mistypedFlagsWithoutAValueAreStillKept() {
    #expect(!HistoryPolicy.mentionsSecret("user show --jsn"))
    #expect(HistoryPolicy.mentionsSecret("user show a@b.co --jsn x"))
    #expect(HistoryPolicy.mentionsSecret("user create x@b.co -p"))
    #expect(HistoryPolicy.mentionsSecret("user create x@b.co --pass"))
    #expect(HistoryPolicy.masked("user create x@b.co -p hunter2") == "user create x@b.co -p ***")
  }
}
