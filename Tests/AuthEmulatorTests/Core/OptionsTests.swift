import Testing

@testable import AuthEmulator

@Suite("EmulatorOptions and banner")
struct OptionsTests {
  @Test("flags map onto the config")
  func parse() throws {
    let options = try EmulatorOptions.parse(arguments: [
      "--host", "0.0.0.0", "--port=0", "--project", "demo-x", "--state", "/tmp/s.sqlite", "--confirm-email",
      "--email-privacy", "--jwt-secret", "s3cret", "--latency-ms", "25", "--fault", "POST /auth/v1/token 429x2",
      "--fault", "GET /auth/v1/user drop", "--bcrypt-cost", "5", "--refresh-reuse-interval", "10",
      "--mail-frequency", "1", "--idle-timeout", "5", "--session-timebox", "86400",
      "--session-inactivity-timeout=3600",
    ])
    let config = options.config
    #expect(config.host == "0.0.0.0" && config.port == 0 && config.project == "demo-x")
    #expect(config.statePath == "/tmp/s.sqlite" && config.confirmEmail && config.emailPrivacy)
    #expect(config.jwtSecret == "s3cret" && config.latencyMs == 25)
    #expect(config.faults.count == 2 && config.faults[0].times == 2 && config.faults[1].preset == .drop)
    #expect(config.bcryptCost == 5 && config.refreshReuseInterval == 10 && config.mailFrequencySeconds == 1)
    #expect(config.idleTimeout == 5 && config.sessionTimebox == 86400 && config.sessionInactivityTimeout == 3600)
    #expect(!options.help)
    #expect(try EmulatorOptions.parse(arguments: ["-h"]).help)
    let defaults = try EmulatorOptions.parse(arguments: []).config
    #expect(defaults.host == "127.0.0.1" && defaults.port == 54321 && !defaults.confirmEmail)
    #expect(!defaults.likeProduction)
    #expect(try EmulatorOptions.parse(arguments: ["--like-production"]).config.likeProduction)
    #expect(EmulatorOptions.usage.contains("--like-production"))
  }

  @Test("--smtp, --team (repeated or with commas) and --captcha; the banner says what mail reaches")
  func mailAndCaptcha() throws {
    let options = try EmulatorOptions.parse(arguments: [
      "--like-production", "--smtp", "built-in", "--team", "ada@example.com,bob@example.com", "--team=cy@example.com", "--captcha",
    ])
    #expect(options.config.smtp == .builtIn && options.config.captcha)
    #expect(options.config.team == ["ada@example.com", "bob@example.com", "cy@example.com"])
    #expect(try EmulatorOptions.parse(arguments: ["--smtp=custom"]).config.smtp == .custom)
    #expect(throws: EmulatorOptionsError.self) { try EmulatorOptions.parse(arguments: ["--smtp", "postfix"]) }
    #expect(throws: EmulatorOptionsError.self) { try EmulatorOptions.parse(arguments: ["--team", "not-an-address"]) }
    #expect(throws: EmulatorOptionsError.self) { try EmulatorOptions.parse(arguments: ["--captcha=yes"]) }
    var config = options.config
    config.port = 54997
    let banner = try Emulator(config: config).banner()
    #expect(banner.contains("  Mail                 built-in: 2 an hour, only to the team (ada@example.com, bob@example.com, cy@example.com)"))
    #expect(banner.contains("  CAPTCHA              on"))
    #expect(EmulatorOptions.usage.contains("--smtp built-in|custom") && EmulatorOptions.usage.contains("--team EMAIL"))
  }

  @Test("banner: like production says so, and confirmation and privacy show as on")
  func likeProductionBanner() throws {
    var config = EmulatorConfig()
    config.port = 54998
    config.likeProduction = true
    let banner = try Emulator(config: config).banner()
    #expect(banner.contains("  Mode                 like production (http://127.0.0.1:54998/emulator/v1/config switches it)"))
    #expect(banner.contains("  e-mail confirmation  on") && banner.contains("  e-mail privacy       on"))
  }

  @Test("usage errors", arguments: [
    ["--port"], ["--port", "x"], ["--port", "70000"], ["--bogus"], ["--confirm-email=yes"], ["--like-production=1"], ["--fault", "nonsense"],
    ["--state", ""], ["--idle-timeout", "0"], ["--session-timebox", "-1"],
  ])
  func errors(arguments: [String]) {
    #expect(throws: EmulatorOptionsError.self) { try EmulatorOptions.parse(arguments: arguments) }
  }

  @Test("banner: URLs, keys, export lines")
  func banner() throws {
    var config = EmulatorConfig()
    config.port = 54999
    config.host = "0.0.0.0"
    let text = try Emulator(config: config).banner()
    let anon = Emulator.key(role: "anon", secret: config.jwtSecret)
    #expect(text.contains("export SUPABASE_URL=http://127.0.0.1:54999\n"))
    #expect(text.contains("export SUPABASE_ANON_KEY=\(anon)\n"))
    // The support commands need the admin key, which the README tells you to export from here.
    let service = Emulator.key(role: "service_role", secret: config.jwtSecret)
    #expect(text.contains("export SUPABASE_SERVICE_ROLE_KEY=\(service)\n"))
    #expect(text.contains("export FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:54999\n"))
    #expect(text.contains("export FIREBASE_API_KEY=fake-api-key\n"))
    #expect(text.contains("export FIREBASE_PROJECT_ID=demo-authsh\n"))
    #expect(text.contains("http://127.0.0.1:54999/auth/v1"))
    #expect(text.contains(Emulator.key(role: "service_role", secret: config.jwtSecret)))
  }
}
