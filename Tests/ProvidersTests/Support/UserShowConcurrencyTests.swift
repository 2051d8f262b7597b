import AuthCore
import AuthEmulator
import AuthTestSupport
import Foundation
import NIOTransport
import Providers
import ShellKit
import Testing

/// `user show` of many accounts through the real runner, provider and keep-alive transport,
/// against the emulator over loopback: `--jobs N` uses several connections, at most N, each reused
/// for many requests; results come back in input order.
@Suite struct UserShowConcurrencyTests {
  @Test(arguments: [ProviderKind.supabase, .firebase])
  func manyLookupsShareAFewKeptAliveConnections(_ kind: ProviderKind) async throws {
    var config = EmulatorConfig()
    config.port = 0
    let emulator = try Emulator(config: config)
    FileDescriptorLimit.raiseSoftLimit()
    try await emulator.start()
    try await withStarted(emulator) { emulator in
      let host = emulator.firebaseHost
      var target =
        kind == .supabase
        ? Target(provider: .supabase, profile: "test", url: emulator.supabaseURL, key: emulator.anonKey)
        : Target(
          provider: .firebase, profile: "test", url: "http://\(host)/identitytoolkit.googleapis.com/v1",
          key: "fake-api-key",
          projectId: config.project, firebaseEmulatorHost: host)
      target.admin.serviceKey = kind == .supabase ? emulator.serviceRoleKey : nil
      let transport = NIOHTTPTransport()
      let seeding = AdminProviderFactory.make(
        target, credential: try AdminCredential.resolve(for: target, environment: [:]), transport: transport)
      let emails = (0..<40).map { "c\($0)@example.com" }
      for email in emails { _ = try await seeding.createUser(email: email, password: nil, confirmed: true, name: nil) }
      let before = transport.connectionsOpened

      var connection = ConnectionFlags()
      connection.provider = kind
      let context = ShellContext(
        resolver: ConfigResolver(
          environment: [:], paths: Paths(environment: ["HOME": "/nonexistent"]), configFile: nil),
        connection: connection,
        services: ShellServices(
          makeProvider: { target, _ in ProviderFactory.make(target, transport: transport) },
          sessionStore: InMemorySessionStore(),
          makeAdminProvider: { target, credential, _ in
            AdminProviderFactory.make(target, credential: credential, transport: transport)
          }))
      context.emulatorTargets = [kind: target]
      let words = try WordSplitter.split("user show --jobs 8 " + (emails + ["gone@example.com"]).joined(separator: " "))
      let invocation = try InvocationParser.parse(words, surface: .oneShot).get()
      let result = await CommandRunner().run(invocation, in: context)

      #expect(result.error?.code == .userNotFound, "one of 41 is missing: the result says so, as the exit status does")
      #expect(result.lookups.map(\.query) == emails + ["gone@example.com"])
      #expect(result.lookups.prefix(40).allSatisfy { $0.user != nil } && result.lookups[40].user == nil)
      let opened = transport.connectionsOpened - before
      #expect(
        opened >= 2 && opened <= 16,
        "41 lookups, each with its outbox read alongside (at most 2 × 8 at a time), over \(opened) new connections")
    }
  }
}
