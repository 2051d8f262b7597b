import AuthEmulator

/// Something a test starts and must stop before it ends: a fixture server, the embedded emulator,
/// a test's rig of them.
package protocol TestService: Sendable {
  /// Stops what was started; awaited by `withStarted` before the test goes on or ends.
  func stop() async
}

/// Runs `body` with what `start` started, then awaits `stop`, both when `body` returns and when
/// it throws (the error is then rethrown). Nothing is stopped when `start` itself throws.
///
/// Unlike `defer { Task { await stop(service) } }`, the stop is over when this returns: the next
/// test never shares the machine with a server still shutting down.
@discardableResult
package func withStarted<Service, Result>(
  _ start: () async throws -> Service, stop: (Service) async -> Void,
  isolation: isolated (any Actor)? = #isolation,
  _ body: (Service) async throws -> Result
) async throws -> Result {
  let service = try await start()
  let result: Result
  do {
    result = try await body(service)
  } catch {
    await stop(service)
    throw error
  }
  await stop(service)
  return result
}

/// Runs `body` with `service` (already started), then awaits `service.stop()`, both when `body`
/// returns and when it throws (the error is then rethrown):
///
///     try await withStarted(CLIEmulator(provider: "supabase")) { cli in … }
@discardableResult
package func withStarted<Service: TestService, Result>(
  _ service: Service, isolation: isolated (any Actor)? = #isolation,
  _ body: (Service) async throws -> Result
) async throws -> Result {
  try await withStarted({ service }, stop: { await $0.stop() }, body)
}

extension FixtureServer: TestService {}

extension Emulator: TestService {
  /// `shutdown()`, under the name `TestService` asks for.
  package func stop() async { await shutdown() }
}
