import AuthCore
import AuthTestSupport
import Foundation
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

extension Date {
  /// Where the Firebase tests' clock starts (2026-01-01 00:00:00 UTC).
  static let firebaseTestStart = Date(timeIntervalSince1970: 1_767_225_600)
}

/// An in-memory `DocumentStore` that keeps what was written (persistence tests).
final class FirebaseMemoryStore: DocumentStore {
  private let tables = Guarded<[String: [String: JSON]]>([:])

  func put(_ table: String, key: String, _ document: JSON) throws {
    tables.update { $0[table, default: [:]][key] = document }
  }
  func delete(_ table: String, key: String) throws { tables.update { $0[table]?[key] = nil } }
  func deleteAll(_ table: String) throws { tables.update { $0[table] = [:] } }
  func loadAll(_ table: String) throws -> [(key: String, document: JSON)] {
    tables.update { ($0[table] ?? [:]).map { (key: $0.key, document: $0.value) } }
  }
  func documents(_ table: String) -> [JSON] { tables.update { Array(($0[table] ?? [:]).values) } }
}

struct FirebaseReply {
  var status: Int
  var json: JSON
  var headers: [(name: String, value: String)]
  var text: String

  /// `error.message`, when the reply is an error.
  var error: String? { json["error"]?["message"]?.string }
  subscript(key: String) -> JSON? { json[key] }
  func string(_ key: String) -> String { json[key]?.string ?? "" }
}

/// One emulator driven in-process through `Emulator.handle`.
struct FirebaseHarness {
  let emulator: Emulator
  let clock: ManualTestClock
  let project = "demo-test"
  static let toolkit = "/identitytoolkit.googleapis.com/v1/"

  init(
    emailPrivacy: Bool = false, store: any DocumentStore = NullDocumentStore(),
    clock: ManualTestClock = ManualTestClock(.firebaseTestStart)
  ) throws {
    var config = EmulatorConfig()
    config.project = project
    config.emailPrivacy = emailPrivacy
    self.clock = clock
    emulator = try Emulator(config: config, clock: clock, store: store)
  }

  func send(_ method: String, _ uri: String, body: [UInt8] = [], headers: [(name: String, value: String)] = []) async
    -> FirebaseReply
  {
    let request = ServerRequest(method: method, uri: uri, headers: [("Host", "127.0.0.1:9099")] + headers, body: body)
    let response = await emulator.handle(request)
    let text = String(decoding: response.body, as: UTF8.self)
    return FirebaseReply(
      status: response.status, json: (try? JSON.parse(text)) ?? .null, headers: response.headers,
      text: text)
  }

  /// A client call: `POST …/v1/accounts:<operation>?key=fake-api-key` with a JSON body.
  func call(_ operation: String, _ body: JSON = [:]) async -> FirebaseReply {
    await send(
      "POST", Self.toolkit + "accounts:\(operation)?key=fake-api-key", body: body.bytes,
      headers: [("Content-Type", "application/json")])
  }

  /// An admin call with `Authorization: Bearer owner` under `/v1/projects/<project>/`.
  func admin(_ path: String, _ body: JSON = [:], method: String = "POST") async -> FirebaseReply {
    await send(
      method, Self.toolkit + "projects/\(project)/\(path)", body: method == "GET" ? [] : body.bytes,
      headers: [("Content-Type", "application/json"), ("Authorization", "Bearer owner")])
  }

  func refresh(_ refreshToken: String) async -> FirebaseReply {
    let form = FormCoding.encode([("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
    return await send(
      "POST", "/securetoken.googleapis.com/v1/token?key=fake-api-key", body: Array(form.utf8),
      headers: [("Content-Type", "application/x-www-form-urlencoded")])
  }

  func oobCodes() async -> [JSON] {
    await send("GET", "/emulator/v1/projects/\(project)/oobCodes").json["oobCodes"]?.array ?? []
  }

  func patchConfig(_ body: JSON) async -> FirebaseReply {
    await send(
      "PATCH", "/emulator/v1/projects/\(project)/config", body: body.bytes,
      headers: [("Content-Type", "application/json")])
  }

  /// Signs up and returns the reply (expects success).
  @discardableResult
  func signUp(_ email: String, _ password: String = "secret1", name: String? = nil) async -> FirebaseReply {
    var body: JSON = ["email": .string(email), "password": .string(password), "returnSecureToken": true]
    if let name, case .object(var object) = body {
      object["displayName"] = .string(name)
      body = .object(object)
    }
    let reply = await call("signUp", body)
    #expect(reply.status == 200, "sign-up failed: \(reply.text)")
    return reply
  }

  func signIn(_ email: String, _ password: String = "secret1") async -> FirebaseReply {
    await call(
      "signInWithPassword", ["email": .string(email), "password": .string(password), "returnSecureToken": true])
  }
}

/// The claims of a compact JWT.
func firebaseClaims(_ token: String) -> JSON {
  EmulatorJWT.decodePayload(token) ?? .null
}
