// `--fault` and /emulator/v1/faults describe an `EmulatorFault`; whoever imports the emulator has it.
@_exported import EmulatorFaults
import Essentials
import HTTPServerKit
import JSONKit
import Synchronization

/// Both backends on one loopback port, usable in-process (tests, `authsh run --emulator`) or as
/// `authsh emulator`.
package final class Emulator: Sendable {
  package let config: EmulatorConfig
  package let outbox: Outbox
  /// Where users, sessions and mails are kept: SQLite with `config.statePath`, else nowhere.
  package let store: any DocumentStore
  /// The live fault list (`/emulator/v1/faults`, `--fault`).
  package let faults: FaultInjector
  /// Default or like-production behaviour (`/emulator/v1/config`).
  package let mode: EmulatorMode
  private let router: EmulatorRouter
  let supabase: SupabaseAPI
  let firebase: FirebaseAPI
  /// What `seed` did (banner and ready line).
  let seedResult = Mutex<EmulatorSeedResult?>(nil)
  private let server: HTTPServer

  /// With no `store`, opens `config.statePath` as a `SQLiteDocumentStore` (or keeps everything in
  /// memory when it is nil); both sides get the same store.
  package init(
    config: EmulatorConfig, clock: any EmulatorClock = SystemEmulatorClock(),
    store: (any DocumentStore)? = nil
  ) throws {
    self.config = config
    let store = try store ?? Self.openStore(config)
    self.store = store
    let outbox = Outbox(store: store)
    self.outbox = outbox
    let faults = FaultInjector(config.faults)
    self.faults = faults
    let mode = EmulatorMode(config: config)
    self.mode = mode
    let supabase = try SupabaseAPI(config: config, clock: clock, outbox: outbox, store: store, mode: mode)
    self.supabase = supabase
    let firebase = try FirebaseAPI(config: config, clock: clock, outbox: outbox, store: store, mode: mode)
    self.firebase = firebase
    let apis: [any EmulatorAPI] = [supabase, firebase]
    let router = EmulatorRouter(
      apis: apis, outbox: outbox, faults: faults, mode: mode, latencyMs: config.latencyMs, clock: clock)
    self.router = router
    self.server = HTTPServer(host: config.host, port: config.port, idleTimeoutSeconds: config.idleTimeout) { request in
      await router.route(request)
    }
  }

  /// Same as `init(config:)`: the store comes from `config.statePath`.
  package static func open(config: EmulatorConfig) throws -> Emulator { try Emulator(config: config) }

  static func openStore(_ config: EmulatorConfig) throws -> any DocumentStore {
    guard let path = config.statePath, !path.isEmpty else { return NullDocumentStore() }
    return try SQLiteDocumentStore(path: path)
  }

  /// Serves a request without a socket (the same code path the server uses, faults included).
  package func handle(_ request: ServerRequest) async -> ServerResponse {
    await router.route(request)
  }

  /// Binds and serves; returns the bound port.
  @discardableResult
  package func start() async throws -> Int {
    let port = try await server.start()
    let origin = "http://\(displayHost):\(port)"
    supabase.context.boundOrigin.withLock { $0 = origin }
    return port
  }

  package var port: Int { server.port ?? config.port }
  /// The host clients should use: the bound host, or 127.0.0.1 when bound to every interface.
  var displayHost: String {
    switch config.host {
    case "0.0.0.0", "": return "127.0.0.1"
    case "::", "[::]": return "[::1]"
    default: return config.host.contains(":") && !config.host.hasPrefix("[") ? "[\(config.host)]" : config.host
    }
  }
  package var baseURL: String { "http://\(displayHost):\(port)" }
  package var supabaseURL: String { baseURL + "/auth/v1" }
  /// The web console (`Console/`).
  package var consoleURL: String { baseURL + "/_/" }
  /// False when the emulator listens beyond loopback: the console then answers 403.
  package var consoleServed: Bool { ConsoleGuard.isLoopback(config.host) }
  /// `FIREBASE_AUTH_EMULATOR_HOST` value.
  package var firebaseHost: String { "\(displayHost):\(port)" }

  /// Stops serving, then checkpoints and closes the state file (a normal stop leaves one
  /// self-contained `--state` file).
  package func shutdown() async {
    await server.shutdown()
    store.close()
  }

  /// After `shutdown()`: why the state file alone is not a full copy (its checkpoint failed), or nil.
  package var stateProblemAtStop: String? { store.closeProblem }

  /// What could not be read from the state file at start-up ("" when everything loaded): the
  /// count per table, with the keys of tables whose keys are not secrets.
  package var unreadableRowsReport: String {
    let rows = store.unreadableRows.filter { !$0.value.isEmpty }
    guard !rows.isEmpty else { return "" }
    let secretKeyed: Set = [SupabaseData.refreshTokensTable, FirebaseProject.oobTable]
    return rows.keys.sorted().map { table -> String in
      let keys = rows[table] ?? []
      let noun = keys.count == 1 ? "row" : "rows"
      if secretKeyed.contains(table) { return "\(table): \(keys.count) \(noun)" }
      let shown = keys.prefix(20).joined(separator: ", ") + (keys.count > 20 ? ", …" : "")
      return "\(table): \(keys.count) \(noun) (\(shown))"
    }.joined(separator: "\n")
  }
  package func waitUntilClosed() async { await server.waitUntilClosed() }

  static func outboxResponse(_ request: ServerRequest, outbox: Outbox) -> ServerResponse {
    EmulatorRouter.outboxResponse(request, outbox: outbox)
  }
}

/// Dispatch: control routes, then latency and faults, then each side in turn.
struct EmulatorRouter: Sendable {
  let apis: [any EmulatorAPI]
  let outbox: Outbox
  let faults: FaultInjector
  let mode: EmulatorMode
  let latencyMs: Int
  let clock: any EmulatorClock

  func route(_ request: ServerRequest) async -> ServerResponse {
    let path = request.path
    if EmulatorConsole.owns(path) { return await EmulatorConsole.serve(request, router: self) }
    if path.hasPrefix("/emulator/v1/") {
      if path == "/emulator/v1/outbox" { return Self.outboxResponse(request, outbox: outbox) }
      if path == "/emulator/v1/faults" { return Self.faultsResponse(request, faults: faults) }
      if path == "/emulator/v1/config" { return Self.configResponse(request, mode: mode) }
      if path == "/emulator/v1/limits" { return Self.limitsResponse(request, mode: mode, now: clock.now()) }
    }
    if path == "/emulator/openapi.json" { return Self.openAPIResponse(request) }
    if latencyMs > 0 { await Self.sleep(milliseconds: latencyMs) }
    let fault = faults.take(method: request.method, path: path)
    if let fault {
      if fault.latencyMs > 0 { await Self.sleep(milliseconds: fault.latencyMs) }
      if let response = fault.response(for: request) { return response }
    }
    let response = await dispatch(request)
    return fault.map { $0.decorate(response) } ?? response
  }

  private func dispatch(_ request: ServerRequest) async -> ServerResponse {
    for api in apis {
      if let response = await api.handle(request) { return response }
    }
    return .text(404, "404 page not found")
  }

  static func sleep(milliseconds: Int) async {
    try? await Task.sleep(nanoseconds: UInt64(max(0, min(milliseconds, 600_000))) * 1_000_000)
  }

  static func outboxResponse(_ request: ServerRequest, outbox: Outbox) -> ServerResponse {
    let messages = outbox.messages(to: request.query("email")).map { message -> JSON in
      [
        "side": .string(message.side.rawValue), "kind": .string(message.kind), "email": .string(message.email),
        "code": .string(message.code), "link": .string(message.link),
        "time": .string(
          CivilTime.iso8601(milliseconds: Int((message.time.timeIntervalSince1970 * 1000).rounded(.down)))),
      ]
    }
    let body: JSON = ["messages": .array(messages)]
    return ServerResponse(status: 200, headers: [("Content-Type", "application/json")], body: body.bytes)
  }
}
