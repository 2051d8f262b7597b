import Testing

@testable import AuthEmulator

@Suite("The banner")
struct EmulatorBannerTests {
  @Test("the banner says what mail reaches and whether CAPTCHA is on")
  func mailAndCaptcha() throws {
    var config = EmulatorConfig()
    config.likeProduction = true
    config.smtp = .builtIn
    config.team = ["ada@example.com", "bob@example.com", "cy@example.com"]
    config.captcha = true
    config.port = 54997
    let banner = try Emulator(config: config).banner()
    #expect(
      banner.contains(
        "  Mail                 built-in: 2 an hour, only to the team (ada@example.com, bob@example.com, cy@example.com)"
      ))
    #expect(banner.contains("  CAPTCHA              on"))
  }

  @Test("banner: like production says so, and confirmation and privacy show as on")
  func likeProductionBanner() throws {
    var config = EmulatorConfig()
    config.port = 54998
    config.likeProduction = true
    let banner = try Emulator(config: config).banner()
    #expect(
      banner.contains("  Mode                 like production (http://127.0.0.1:54998/emulator/v1/config switches it)"))
    #expect(banner.contains("  e-mail confirmation  on") && banner.contains("  e-mail privacy       on"))
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
    // The support commands need the admin key, which docs/support-desk.md tells you to export from here.
    let service = Emulator.key(role: "service_role", secret: config.jwtSecret)
    #expect(text.contains("export SUPABASE_SERVICE_ROLE_KEY=\(service)\n"))
    #expect(text.contains("export FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:54999\n"))
    #expect(text.contains("export FIREBASE_API_KEY=fake-api-key\n"))
    #expect(text.contains("export FIREBASE_PROJECT_ID=demo-authsh\n"))
    #expect(text.contains("http://127.0.0.1:54999/auth/v1"))
    #expect(text.contains(Emulator.key(role: "service_role", secret: config.jwtSecret)))
  }

  @Test("banner: the web console's URL on loopback, off beyond it")
  func consoleLine() throws {
    var config = EmulatorConfig()
    config.port = 54996
    let emulator = try Emulator(config: config)
    #expect(emulator.banner().contains("  Web console          http://127.0.0.1:54996/_/\n"))
    #expect(emulator.environment.contains { $0 == ("AUTHSH_EMULATOR_CONSOLE_URL", "http://127.0.0.1:54996/_/") })
    config.host = "0.0.0.0"
    let everywhere = try Emulator(config: config)
    #expect(everywhere.banner().contains("  Web console          off (served only on a loopback --host)\n"))
    #expect(!everywhere.environment.contains { $0.name == "AUTHSH_EMULATOR_CONSOLE_URL" })
  }
}
