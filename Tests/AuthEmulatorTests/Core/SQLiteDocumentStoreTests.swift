import Foundation
import HTTPServerKit
import JSONKit
import Testing

@testable import AuthEmulator

@Suite("SQLiteDocumentStore")
struct SQLiteDocumentStoreTests {
  static func temporaryPath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("authsh-store-\(UUID().uuidString).sqlite").path
  }

  static func remove(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
  }

  @Test("put, replace, delete, batch, and a reopen sees everything")
  func roundTrip() throws {
    let path = Self.temporaryPath()
    defer { Self.remove(path) }
    do {
      let store = try SQLiteDocumentStore(path: path)
      try store.put("t", key: "a", ["n": 1, "s": "x"])
      try store.put("t", key: "b", ["n": 2])
      try store.put("t", key: "a", ["n": 3])
      try store.put("other", key: "a", ["n": 9])
      try store.delete("t", key: "b")
      try store.apply([.put(table: "t", key: "c", document: ["n": 4]), .delete(table: "other", key: "a")])
    }
    let reopened = try SQLiteDocumentStore(path: path)
    let rows = try reopened.loadAll("t")
    #expect(rows.map(\.key) == ["a", "c"])
    #expect(rows.first?.document == ["n": 3])
    #expect(try reopened.loadAll("other").isEmpty)
    try reopened.deleteAll("t")
    #expect(try reopened.loadAll("t").isEmpty)
  }

  @Test("concurrent writers")
  func concurrentWriters() async throws {
    let path = Self.temporaryPath()
    defer { Self.remove(path) }
    let store = try SQLiteDocumentStore(path: path)
    await withTaskGroup(of: Void.self) { group in
      for writer in 0..<8 {
        group.addTask {
          for index in 0..<50 { try? store.put("t", key: "\(writer)-\(index)", ["w": .int(writer)]) }
        }
      }
    }
    #expect(try store.loadAll("t").count == 400)
  }

  @Test("an unopenable path throws")
  func badPath() {
    #expect(throws: SQLiteError.self) { try SQLiteDocumentStore(path: "/nonexistent-dir/x/state.sqlite") }
  }

  @Test("Supabase state survives a restart on the same file")
  func emulatorRestart() async throws {
    let path = Self.temporaryPath()
    defer { Self.remove(path) }
    var config = EmulatorConfig()
    config.statePath = path
    config.jwtSecret = TestEmulator.secret
    let first = try TestEmulator(store: try SQLiteDocumentStore(path: path)) { $0.statePath = path }
    let session = await first.signUp("persist@example.com").json
    _ = await first.send("POST", "recover", json: ["email": "persist@example.com"])
    first.emulator.store.close()  // one process at a time on a state file
    let second = try Emulator(config: config, clock: first.clock)  // opens config.statePath itself
    let request = { (uri: String, body: JSON) in
      ServerRequestFactory.make("POST", uri, body: body)
    }
    let signIn = await second.handle(
      request("/auth/v1/token?grant_type=password", ["email": "persist@example.com", "password": "hunter22"]))
    #expect(signIn.status == 200)
    let refreshed = await second.handle(
      request("/auth/v1/token?grant_type=refresh_token", ["refresh_token": .string(session.refreshToken)]))
    #expect(refreshed.status == 200)
    let tooSoon = await second.handle(request("/auth/v1/recover", ["email": "persist@example.com"]))
    #expect(tooSoon.status == 429)
    #expect(second.outbox.messages(to: "persist@example.com").count == 1)
  }
}

enum ServerRequestFactory {
  static func make(_ method: String, _ uri: String, body: JSON? = nil, headers: [(name: String, value: String)] = [])
    -> ServerRequest
  {
    ServerRequest(method: method, uri: uri, headers: [("Host", "emulator.test")] + headers, body: body?.bytes ?? [])
  }
}
