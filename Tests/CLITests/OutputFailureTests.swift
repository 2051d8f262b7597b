import AuthEmulator
import AuthTestSupport
import Foundation
import Testing

/// Issue 11 item 12: a standard output that cannot be written (a full disk, a closed descriptor,
/// a reader that went away) ends the command with a clear message and exit 74, never a trap and
/// a backtrace.
@Suite(.serialized) struct OutputFailureTests {
  static let ioError: Int32 = 74

  func expectNoCrash(_ outcome: BinaryRunner.Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
    for mark in ["Fatal error", "Crash", "backtrace", "Thread 0", "Illegal instruction", "SIGILL"] {
      #expect(!outcome.stderr.contains(mark), "\(outcome.stderr.prefix(400))", sourceLocation: sourceLocation)
    }
    #expect(!outcome.signaled, "killed by signal \(outcome.status)", sourceLocation: sourceLocation)
  }

  @Test(arguments: [BinaryRunner.StandardOutput.deviceFull, .closed])
  func whoamiWithAnUnwritableStdout(_ target: BinaryRunner.StandardOutput) async throws {
    try await withStarted(CLIEmulator(provider: "supabase")) { cli in
      #expect(
        try await cli.authsh("signup", "full@example.com", "--name", "Full", "--password-env", "AUTHSH_TEST_PW").status
          == 0)
      let outcome = try await cli.runner.run(["whoami"], stdout: target)
      expectNoCrash(outcome)
      #expect(outcome.status == Self.ioError)
      let reason = target == .deviceFull ? "No space left on device" : "Bad file descriptor"
      #expect(outcome.stderr == "authsh: error: cannot write to standard output: \(reason)\n")
      // The command itself still ran: the session is there for the next one.
      #expect(try await cli.authsh("whoami").stdout.contains("full@example.com"))
    }
  }

  @Test(arguments: [["--version"], ["help"], ["completion", "bash"], ["emulator", "--bogus-flag"]])
  func offlineCommandsToDevFull(_ args: [String]) async throws {
    let runner = try BinaryRunner()
    let outcome = try await runner.run(args, stdout: .deviceFull)
    expectNoCrash(outcome)
    if args.contains("--bogus-flag") {
      #expect(outcome.status == 64, "usage errors go to stderr; stdout was never written")
    } else {
      #expect(outcome.status == Self.ioError)
      #expect(outcome.stderr.contains("cannot write to standard output: No space left on device"))
    }
  }

  /// `authsh … | head -1` where head has already gone: quiet, no backtrace, exit 74.
  @Test func brokenPipeIsQuiet() async throws {
    let runner = try BinaryRunner()
    for args in [["completion", "zsh"], ["help", "login"]] {
      let outcome = try await runner.run(args, stdout: .brokenPipe)
      expectNoCrash(outcome)
      #expect(outcome.status == Self.ioError)
      #expect(outcome.stderr == "")
    }
  }

  /// An export to a full disk says how far it got (nothing was written) and why, not that
  /// nobody reads; a reader that goes away is told nothing (exit 74, as `brokenPipeIsQuiet`).
  @Test func userExportToAnUnwritableStdout() async throws {
    try await withStarted(CLIEmulator(provider: "supabase")) { cli in
      cli.runner.environment["SUPABASE_SERVICE_ROLE_KEY"] = cli.emulator.serviceRoleKey
      #expect(
        try await cli.authsh("user", "create", "full@example.com", "--password-env", "AUTHSH_TEST_PW").status == 0)
      let full = try await cli.runner.run(["user", "export"], stdout: .deviceFull)
      expectNoCrash(full)
      #expect(full.status == Self.ioError)
      #expect(full.stderr.contains("Stopped after 0 accounts: standard output failed"), "\(full.stderr)")
      #expect(full.stderr.hasSuffix("authsh: error: cannot write to standard output: No space left on device\n"))
      #expect(!full.stderr.contains("nobody reads"))
      let gone = try await cli.runner.run(["user", "export"], stdout: .brokenPipe)
      #expect(gone.status == Self.ioError)
      #expect(!gone.stderr.contains("Stopped after") && !gone.stderr.contains("nobody reads"), "\(gone.stderr)")
    }
  }

  /// The emulator's ready output (banner, --print-env, --json) that cannot be written stops it:
  /// with --port 0 nobody could learn its address.
  @Test(arguments: [[], ["--print-env"], ["--json"]])
  func anEmulatorThatCannotAnnounceItselfStops(_ mode: [String]) async throws {
    let runner = try BinaryRunner()
    let outcome = try await runner.run(["emulator", "--port", "0"] + mode, timeout: 20, stdout: .deviceFull)
    expectNoCrash(outcome)
    #expect(outcome.status == Self.ioError)
    #expect(outcome.stderr.contains("error: the emulator stopped: it could not write where it listens"))
    #expect(outcome.stderr.hasSuffix("cannot write to standard output: No space left on device\n"))
  }

  @Test func scriptRunToDevFull() async throws {
    let runner = try BinaryRunner()
    let file = runner.home + "/ok.auth"
    try "test \"offline\"\nlet x = \"1\"\n".write(toFile: file, atomically: true, encoding: .utf8)
    let outcome = try await runner.run(["run", file], stdout: .deviceFull)
    expectNoCrash(outcome)
    #expect(outcome.status == Self.ioError)
    #expect(outcome.stderr.contains("cannot write to standard output"))
  }
}
