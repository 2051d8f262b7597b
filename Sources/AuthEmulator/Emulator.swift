import Foundation
import HTTPServerKit
import JSONKit

/// Both backends on one loopback port, usable in-process (tests, `authsh run --emulator`) or as
/// `authsh emulator`.
public final class Emulator: Sendable {
  public let config: EmulatorConfig
  public let outbox: Outbox
  private let apis: [any EmulatorAPI]
  private let server: HTTPServer

  public init(config: EmulatorConfig, clock: any EmulatorClock = SystemEmulatorClock(),
              store: any DocumentStore = NullDocumentStore()) throws {
    self.config = config
    let outbox = Outbox(store: store)
    self.outbox = outbox
    let apis: [any EmulatorAPI] = [
      try SupabaseAPI(config: config, clock: clock, outbox: outbox, store: store),
      try FirebaseAPI(config: config, clock: clock, outbox: outbox, store: store),
    ]
    self.apis = apis
    self.server = HTTPServer(host: config.host, port: config.port) { request in
      await Emulator.route(request, apis: apis, outbox: outbox)
    }
  }

  /// Serves a request without a socket (the same code path the server uses).
  public func handle(_ request: ServerRequest) async -> ServerResponse {
    await Emulator.route(request, apis: apis, outbox: outbox)
  }

  /// Binds and serves; returns the bound port.
  @discardableResult
  public func start() async throws -> Int { try await server.start() }

  public var port: Int { server.port ?? config.port }
  public var baseURL: String { "http://\(config.host):\(port)" }
  public var supabaseURL: String { baseURL + "/auth/v1" }
  /// `FIREBASE_AUTH_EMULATOR_HOST` value.
  public var firebaseHost: String { "\(config.host):\(port)" }

  public func shutdown() async { await server.shutdown() }
  public func waitUntilClosed() async { await server.waitUntilClosed() }

  static func route(_ request: ServerRequest, apis: [any EmulatorAPI], outbox: Outbox) async -> ServerResponse {
    if request.path == "/emulator/v1/outbox" { return outboxResponse(request, outbox: outbox) }
    for api in apis {
      if let response = await api.handle(request) { return response }
    }
    return .text(404, "404 page not found")
  }

  static func outboxResponse(_ request: ServerRequest, outbox: Outbox) -> ServerResponse {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let messages = outbox.messages(to: request.query("email")).map { message -> JSON in
      [
        "side": .string(message.side.rawValue), "kind": .string(message.kind), "email": .string(message.email),
        "code": .string(message.code), "link": .string(message.link), "time": .string(formatter.string(from: message.time)),
      ]
    }
    let body: JSON = ["messages": .array(messages)]
    return ServerResponse(status: 200, headers: [("Content-Type", "application/json")], body: body.bytes)
  }
}
