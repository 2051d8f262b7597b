import AuthEmulator
import AuthTestSupport
import Foundation
import Testing

/// Issue 11 items 5 and 8 through the real binary: an explicit `--profile` beats the emulator's
/// exported variables, `status` and `--verbose` say when the environment overrides a profile, and
/// a config mistake exits 78 naming file, line and key.
@Suite(.serialized) struct ConfigCLITests {
  func runner(config: String) throws -> BinaryRunner {
    let runner = try BinaryRunner()
    let directory = (runner.environment["XDG_CONFIG_HOME"] ?? runner.home + "/.config") + "/authsh"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try Data(config.utf8).write(to: URL(fileURLWithPath: directory + "/config.toml"))
    chmod(directory + "/config.toml", 0o600)
    return runner
  }

  @Test func explicitProfileBeatsExportedEmulatorVariables() async throws {
    var config = EmulatorConfig()
    config.port = 0
    let emulator = try Emulator(config: config)
    FileDescriptorLimit.raiseSoftLimit()
    try await emulator.start()
    try await withStarted(emulator) { emulator in
      var runner = try runner(
        config: """
          default_profile = "local"

          [profiles.local]
          provider = "supabase"
          url = "\(emulator.baseURL)"
          key = "anon-key-for-cli-tests"
          """)
      // What `authsh emulator` tells people to export, but pointing nowhere.
      runner.environment["SUPABASE_URL"] = "http://127.0.0.1:9"
      runner.environment["SUPABASE_ANON_KEY"] = "stale-anon-key"
      runner.environment["AUTHSH_TEST_PW"] = "Known-Pa55word-for-config"

      let signup = try await runner.run([
        "signup", "ada@example.com", "--name", "Ada", "--password-env", "AUTHSH_TEST_PW", "--profile", "local",
      ])
      #expect(signup.status == 0, "\(signup.combined)")

      let explicit = try await runner.run(["status", "--profile", "local"])
      #expect(explicit.status == 0, "\(explicit.combined)")
      #expect(explicit.stdout.contains(emulator.baseURL + "/auth/v1"))
      #expect(explicit.stdout.contains("SUPABASE_URL is set but not used: profile 'local' was chosen explicitly."))

      let implicit = try await runner.run(["status"])
      #expect(implicit.stdout.contains("http://127.0.0.1:9/auth/v1"))
      #expect(implicit.stdout.contains("environment: SUPABASE_URL overrides url of profile 'local'"))
      #expect(!implicit.combined.contains("stale-anon-key"))

      let verbose = try await runner.run(["whoami", "--verbose"])
      #expect(
        verbose.stderr.contains("* environment: SUPABASE_URL overrides url of profile 'local'"), "\(verbose.combined)")
      #expect(!verbose.combined.contains("stale-anon-key"))
    }
  }

  @Test func configMistakesExit78() async throws {
    let runner = try runner(
      config: "default_profile = \"staging\"\r\n\r\n[profiles.staging]\r\nporvider = \"supabase\"\r\n")
    let outcome = try await runner.run(
      ["status"], extraEnvironment: ["SUPABASE_URL": "http://127.0.0.1:9", "SUPABASE_ANON_KEY": "k"])
    #expect(outcome.status == 78)
    #expect(
      outcome.stderr.contains("config.toml:4: unknown key 'porvider' in [profiles.staging]; did you mean 'provider'?"))

    let script = runner.home + "/smoke.auth"
    try Data("test \"status\"\n  status\n".utf8).write(to: URL(fileURLWithPath: script))
    let run = try await runner.run(["run", script])
    #expect(run.status == 78, "\(run.combined)")
    #expect(run.stderr.contains("config.toml:4: unknown key 'porvider'"))
  }

  /// `[emulator] like_production = true`: `--emulator` and `authsh emulator` start like production;
  /// a misspelt key there is a config error like any other.
  @Test func theEmulatorTableSwitchesTheModeAndIsChecked() async throws {
    var production = try runner(config: "[emulator]\nlike_production = true\nteam = [\"ada@example.com\"]\n")
    production.environment["AUTHSH_TEST_PW"] = "Known-Pa55word-for-config"
    let signup = try await production.run(
      ["--emulator", "signup", "ada@example.com", "--name", "Ada", "--password-env", "AUTHSH_TEST_PW", "--json"])
    #expect(signup.status == 0, "\(signup.combined)")
    #expect(
      signup.stdout.contains("\"confirmation_required\": true"), "confirmation is on like production: \(signup.stdout)")
    // The built-in mail service delivers only to the team, as on a hosted project.
    let outsider = try await production.run(
      ["--emulator", "signup", "eve@example.com", "--name", "Eve", "--password-env", "AUTHSH_TEST_PW", "--json"])
    #expect(outsider.status != 0 && outsider.stdout.contains("email_address_not_authorized"), "\(outsider.combined)")
    var custom = try runner(config: "[emulator]\nlike_production = true\nsmtp = \"custom\"\ncaptcha = false\n")
    custom.environment["AUTHSH_TEST_PW"] = "Known-Pa55word-for-config"
    let anyone = try await custom.run([
      "--emulator", "signup", "eve@example.com", "--name", "Eve", "--password-env", "AUTHSH_TEST_PW", "--json",
    ])
    #expect(anyone.status == 0, "custom SMTP mails any address: \(anyone.combined)")
    for (config, message) in [
      ("[emulator]\nsmtp = \"postfix\"\n", "smtp = \"postfix\" must be one of \"built-in\", \"custom\""),
      ("[emulator]\nteam = \"ada@example.com\"\n", "team must be a list of strings"),
      ("[emulator]\nteam = [1]\n", "team must be a list of strings"),
    ] {
      let wrong = try await runner(config: config).run(["--emulator", "status"])
      #expect(wrong.status == 78 && wrong.stderr.contains(message), "\(config): \(wrong.combined)")
    }

    let typo = try runner(config: "[emulator]\nlike_prodution = true\n")
    for arguments in [["--emulator", "status"], ["emulator", "--port", "0"]] {
      let out = try await typo.run(arguments, timeout: 30)
      #expect(out.status == 78, "\(arguments): \(out.combined)")
      #expect(out.stderr.contains("unknown key 'like_prodution' in [emulator]; did you mean 'like_production'?"))
    }
    let wrongType = try await runner(config: "[emulator]\nlike_production = \"yes\"\n").run(["--emulator", "status"])
    #expect(wrongType.status == 78)
    #expect(wrongType.stderr.contains("like_production must be true or false"))
  }
}
