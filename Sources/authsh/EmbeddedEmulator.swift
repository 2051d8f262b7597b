import AuthCore
import AuthEmulator
import Foundation
import ShellKit

/// An in-process emulator on a free loopback port (`authsh --emulator`, `authsh run --emulator`).
struct EmbeddedEmulator: Sendable {
  let emulator: Emulator

  /// Starts the embedded emulator when `asked` (`--emulator`), in the like-production mode when the
  /// flag or `[emulator] like_production` in config.toml says so. `failure`: the exit status to
  /// end with (the reason is already printed).
  static func startIfAsked(
    _ asked: Bool, likeProduction: Bool, seed: String? = nil, environment: [String: String], sink: some OutputSink
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
    let configured: Bool
    do {
      configured = try configuredLikeProduction(environment: environment)
    } catch let error as AuthError {
      sink.err(HumanRenderer.renderError(error, style: Terminal.style(flag: nil, environment: environment, stream: 2)))
      return (nil, ExitStatus.forError(error))
    } catch {
      return (nil, ExitStatus.configuration)
    }
    guard let started = await start(sink: sink, likeProduction: likeProduction || configured) else {
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

  /// `[emulator] like_production = true` in config.toml (false without a config file).
  static func configuredLikeProduction(environment: [String: String]) throws -> Bool {
    let paths = Paths(environment: environment)
    let resolver = ConfigResolver(environment: environment, paths: paths, configFile: Contexts.readConfig(paths.configFile))
    return try resolver.document()?.emulatorLikeProduction ?? false
  }

  static func start(sink: some OutputSink, likeProduction: Bool = false) async -> EmbeddedEmulator? {
    var config = EmulatorConfig()
    config.port = 0
    config.likeProduction = likeProduction
    do {
      let emulator = try Emulator(config: config)
      try await emulator.start()
      return EmbeddedEmulator(emulator: emulator)
    } catch {
      sink.err("error: could not start the embedded emulator: \(EmulatorCommand.bindProblem(error, host: config.host, port: 0))\n")
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
    if context.connection.provider == nil { context.connection.provider = .supabase }
  }

  var anonKey: String { emulator.anonKey }

  func shutdown() async { await emulator.shutdown() }
}
