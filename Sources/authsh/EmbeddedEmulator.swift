import AuthCore
import AuthEmulator
import Foundation
import ShellKit

/// An in-process emulator on a free loopback port (`authsh --emulator`, `authsh run --emulator`).
struct EmbeddedEmulator: Sendable {
  let emulator: Emulator

  static func start(sink: some OutputSink) async -> EmbeddedEmulator? {
    var config = EmulatorConfig()
    config.port = 0
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
