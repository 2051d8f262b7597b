import AuthCore
import AuthEmulator
import Essentials
import ShellKit

/// An in-process emulator on a free loopback port (`authsh --emulator`, `authsh run --emulator`).
struct EmbeddedEmulator: Sendable {
  let emulator: Emulator

  /// Starts the embedded emulator when `asked` (`--emulator`), in the like-production mode when the
  /// flag or `[emulator] like_production` in config.toml says so. `failure`: the exit status to
  /// end with (the reason is already printed).
  static func startIfAsked(
    _ asked: Bool, likeProduction: Bool, smtp: EmulatorSMTP? = nil, seed: String? = nil, environment: [String: String],
    sink: some OutputSink
  ) async -> (emulator: EmbeddedEmulator?, failure: Int32?) {
    guard asked else { return (nil, nil) }
    // `--seed FILE`: read and checked whole first; a bad line starts nothing (exit 78).
    var accounts: [EmulatorSeedAccount] = []
    if let seed {
      do {
        accounts = try EmulatorSeed.load(path: seed)
      } catch {
        sink.err("error: seed file \(error)\n")
        return (nil, ExitStatus.configuration)
      }
    }
    let configured: ConfiguredEmulator
    do {
      configured = try ConfiguredEmulator.read(environment: environment)
    } catch let error as AuthError {
      sink.err(HumanRenderer.renderError(error, style: Terminal.style(flag: nil, environment: environment, stream: 2)))
      return (nil, ExitStatus.forError(error))
    } catch {
      return (nil, ExitStatus.configuration)
    }
    var config = EmulatorConfig()
    configured.apply(to: &config)
    if likeProduction { config.likeProduction = true }
    // `run --emulator --smtp custom`: the flag wins over `[emulator] smtp`.
    if let smtp { config.smtp = smtp }
    guard let started = await start(sink: sink, config: config) else {
      return (nil, ExitStatus.backend)
    }
    if !accounts.isEmpty {
      do {
        try started.emulator.seed(accounts, from: seed)
      } catch {
        await started.shutdown()
        sink.err("error: could not create the accounts of \(seed ?? ""): \(error)\n")
        return (nil, ExitStatus.failure)
      }
    }
    return (started, nil)
  }

  static func start(sink: some OutputSink, likeProduction: Bool = false) async -> EmbeddedEmulator? {
    var config = EmulatorConfig()
    config.likeProduction = likeProduction
    return await start(sink: sink, config: config)
  }

  static func start(sink: some OutputSink, config: EmulatorConfig) async -> EmbeddedEmulator? {
    var config = config
    config.port = 0
    do {
      let emulator = try Emulator(config: config)
      try await emulator.start()
      return EmbeddedEmulator(emulator: emulator)
    } catch {
      sink.err(
        "error: could not start the embedded emulator: \(EmulatorCommand.bindProblem(error, host: config.host, port: 0))\n"
      )
      return nil
    }
  }

  /// Points both providers at the emulator (`provider supabase|firebase` switch between them).
  func configure(_ context: ShellContext) {
    let host = emulator.firebaseHost
    // Admin commands need no environment here: the emulator's own service_role key (Firebase
    // takes `Bearer owner` on an emulator host).
    var supabase = Target(provider: .supabase, profile: "emulator", url: emulator.supabaseURL, key: anonKey)
    supabase.admin.serviceKey = emulator.serviceRoleKey
    context.redactor.register(emulator.serviceRoleKey)
    context.emulatorTargets = [
      .supabase: supabase,
      .firebase: Target(
        provider: .firebase, profile: "emulator", url: "http://\(host)/identitytoolkit.googleapis.com/v1",
        key: emulator.config.firebaseAPIKey, projectId: emulator.config.project, firebaseEmulatorHost: host),
    ]
    context.provideDefault(.supabase)
  }

  var anonKey: String { emulator.anonKey }

  func shutdown() async { await emulator.shutdown() }
}

/// The `[emulator]` table of config.toml: defaults for `authsh emulator` and the in-process one.
struct ConfiguredEmulator: Sendable, Equatable {
  var likeProduction = false
  var smtp: EmulatorSMTP?
  var team: [String] = []
  var captcha = false

  /// What config.toml says (all defaults without a config file).
  static func read(environment: [String: String]) throws -> ConfiguredEmulator {
    let paths = Paths(environment: environment)
    let resolver = ConfigResolver(
      environment: environment, paths: paths, configFile: Contexts.readConfig(paths.configFile))
    guard let document = try resolver.document() else { return ConfiguredEmulator() }
    return ConfiguredEmulator(
      likeProduction: document.emulatorLikeProduction,
      smtp: document.emulatorSMTP.flatMap(EmulatorSMTP.init(rawValue:)),
      team: document.emulatorTeam, captcha: document.emulatorCaptcha)
  }

  /// Fills what the flags left unset: a flag given on the command line wins.
  func apply(to config: inout EmulatorConfig, flags: EmulatorConfig = EmulatorConfig()) {
    if likeProduction { config.likeProduction = true }
    if captcha { config.captcha = true }
    if let smtp, flags.smtp == EmulatorConfig().smtp { config.smtp = smtp }
    if flags.team.isEmpty, !team.isEmpty { config.team = team }
  }
}
