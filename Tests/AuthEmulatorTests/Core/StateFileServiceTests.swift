import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

/// The state file as a long-running service uses it: one process at a time, private permissions,
/// a self-contained file after a normal stop, and unreadable rows reported instead of dropped.
@Suite("State file: lock, permissions, close, unreadable rows")
struct StateFileServiceTests {
  @Test("a second store on the same file is refused until the first is closed")
  func exclusiveLock() throws {
    let path = SQLiteDocumentStoreTests.temporaryPath()
    defer { SQLiteDocumentStoreTests.remove(path) }
    let first = try SQLiteDocumentStore(path: path)
    try first.put("t", key: "a", ["n": 1])
    #expect(throws: StateFileInUseError.self) { try SQLiteDocumentStore(path: path) }
    do {
      _ = try SQLiteDocumentStore(path: path)
    } catch {
      #expect("\(error)".contains("in use by another emulator"))
    }
    first.close()
    let second = try SQLiteDocumentStore(path: path)
    #expect(try second.loadAll("t").map(\.key) == ["a"])
  }

  @Test("new files are created 0600: the database, its WAL and shared-memory files")
  func privateModes() throws {
    let path = SQLiteDocumentStoreTests.temporaryPath()
    defer { SQLiteDocumentStoreTests.remove(path) }
    let store = try SQLiteDocumentStore(path: path)
    try store.put("t", key: "a", ["secret": "hash"])
    for suffix in ["", "-wal", "-shm"] {
      let attributes = try FileManager.default.attributesOfItem(atPath: path + suffix)
      let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
      #expect(mode == 0o600, "\(suffix.isEmpty ? "db" : suffix) has mode \(String(mode, radix: 8))")
    }
  }

  @Test("close checkpoints the WAL: the main file copied alone holds every row")
  func closeCheckpoints() throws {
    let path = SQLiteDocumentStoreTests.temporaryPath()
    let copy = SQLiteDocumentStoreTests.temporaryPath()
    defer {
      SQLiteDocumentStoreTests.remove(path)
      SQLiteDocumentStoreTests.remove(copy)
    }
    let store = try SQLiteDocumentStore(path: path)
    for index in 0..<20 { try store.put("t", key: "k\(index)", ["n": .int(index)]) }
    store.close()
    #expect(throws: SQLiteError.self) { try store.put("t", key: "late", ["n": 0]) }
    let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue ?? 0
    #expect(walSize == 0)
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    #expect(try SQLiteDocumentStore(path: copy).loadAll("t").count == 20)
  }

  @Test("rows that cannot be decoded are reported at start-up with their keys (counts only for secret keys)")
  func unreadableRowsReported() throws {
    let path = SQLiteDocumentStoreTests.temporaryPath()
    defer { SQLiteDocumentStoreTests.remove(path) }
    do {
      let store = try SQLiteDocumentStore(path: path)
      try store.put(SupabaseData.usersTable, key: "broken-user-id", ["not": "a user"])
      try store.put(SupabaseData.refreshTokensTable, key: "secretrefresh", ["not": "a token"])
      try store.put(FirebaseProject.usersTable, key: "demo-authsh/broken-local-id", ["projectId": 7])
      store.close()
    }
    var config = EmulatorConfig()
    config.statePath = path
    let emulator = try Emulator(config: config)
    defer { emulator.store.close() }
    let report = emulator.unreadableRowsReport
    #expect(report.contains("supabase_users: 1 row (broken-user-id)"))
    #expect(report.contains("firebase_users: 1 row (demo-authsh/broken-local-id)"))
    #expect(report.contains("supabase_refresh_tokens: 1 row"))
    #expect(!report.contains("secretrefresh"))
  }

  @Test("a clean file reports nothing")
  func cleanFileReportsNothing() throws {
    let path = SQLiteDocumentStoreTests.temporaryPath()
    defer { SQLiteDocumentStoreTests.remove(path) }
    var config = EmulatorConfig()
    config.statePath = path
    let emulator = try Emulator(config: config)
    defer { emulator.store.close() }
    #expect(emulator.unreadableRowsReport.isEmpty)
  }
}
