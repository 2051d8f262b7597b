import AuthTestSupport
import Foundation
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

struct TestResponse {
  var status: Int
  var headers: [(name: String, value: String)]
  var body: [UInt8]

  var json: JSON { (try? JSON.parse(bytes: body)) ?? .null }
  var text: String { String(decoding: body, as: UTF8.self) }
  func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
  /// The GoTrue error code of either body format.
  var errorCode: String? { json["error_code"]?.string ?? json["code"]?.string }
}

/// An in-process emulator driven through `Emulator.handle` (no socket).
struct TestEmulator {
  let emulator: Emulator
  let clock: ManualTestClock
  static let secret = "unit-test-secret-of-at-least-thirty-two-characters"

  init(
    confirmEmail: Bool = false, store: (any DocumentStore)? = nil,
    configure: (inout EmulatorConfig) -> Void = { _ in }
  ) throws {
    var config = EmulatorConfig()
    config.jwtSecret = Self.secret
    config.confirmEmail = confirmEmail
    configure(&config)
    clock = ManualTestClock(Date(timeIntervalSince1970: 1_767_225_600.25))
    emulator = try Emulator(config: config, clock: clock, store: store ?? NullDocumentStore())
  }

  var serviceRoleKey: String { Emulator.key(role: "service_role", secret: Self.secret) }
  var anonKey: String { Emulator.key(role: "anon", secret: Self.secret) }

  func send(
    _ method: String, _ path: String, json: JSON? = nil, raw: String? = nil, bearer: String? = nil,
    dated: Bool = true, headers: [(String, String)] = []
  ) async -> TestResponse {
    var all: [(name: String, value: String)] = [("Host", "emulator.test")]
    if dated { all.append(("X-Supabase-Api-Version", "2024-01-01")) }
    if let bearer { all.append(("Authorization", "Bearer \(bearer)")) }
    for (name, value) in headers { all.append((name, value)) }
    let body = json.map(\.bytes) ?? raw.map { Array($0.utf8) } ?? []
    let uri = path.hasPrefix("/") ? path : "/auth/v1/" + path
    let response = await emulator.handle(ServerRequest(method: method, uri: uri, headers: all, body: body))
    return TestResponse(status: response.status, headers: response.headers, body: response.body)
  }

  @discardableResult
  func signUp(_ email: String, _ password: String = "hunter22", data: JSON = [:]) async -> TestResponse {
    await send("POST", "signup", json: ["email": .string(email), "password": .string(password), "data": data])
  }

  /// A sign-up from its own client address (`X-Forwarded-For: 203.0.113.N`), as many users make
  /// them, so that the per-address limits of the like-production mode do not apply.
  @discardableResult
  func signUp(_ email: String, _ password: String = "hunter22", from client: Int) async -> TestResponse {
    await send(
      "POST", "signup", json: ["email": .string(email), "password": .string(password)],
      headers: [("X-Forwarded-For", "203.0.113.\(client % 250)")])
  }

  func signIn(_ email: String, _ password: String = "hunter22") async -> TestResponse {
    await send("POST", "token?grant_type=password", json: ["email": .string(email), "password": .string(password)])
  }

  func refresh(_ token: String) async -> TestResponse {
    await send("POST", "token?grant_type=refresh_token", json: ["refresh_token": .string(token)])
  }

  func outbox(_ email: String) -> [OutboxMessage] { emulator.outbox.messages(to: email, side: .supabase) }
}

extension JSON {
  var accessToken: String { self["access_token"]?.string ?? "" }
  var refreshToken: String { self["refresh_token"]?.string ?? "" }
  var claims: JSON { EmulatorJWT.decodePayload(accessToken) ?? .null }
}
