import AuthCore
import Foundation
import JSONKit
import Testing

@testable import AuthEmulator

/// A store that keeps documents in memory and fails every write while `full` is set, as SQLite
/// does on a full disk (the failed transaction leaves nothing behind).
final class FullDiskStore: DocumentStore {
  private let tables = Guarded<[String: [(key: String, document: JSON)]]>([:])
  private let isFull = Guarded(false)
  var full: Bool {
    get { isFull[\.self] }
    set { isFull[\.self] = newValue }
  }

  struct DiskFull: Error, CustomStringConvertible {
    var description: String { "database or disk is full" }
  }

  func put(_ table: String, key: String, _ document: JSON) throws {
    try apply([.put(table: table, key: key, document: document)])
  }
  func delete(_ table: String, key: String) throws { try apply([.delete(table: table, key: key)]) }
  func deleteAll(_ table: String) throws { tables.update { $0[table] = [] } }
  func loadAll(_ table: String) throws -> [(key: String, document: JSON)] { tables.update { $0[table] ?? [] } }
  func apply(_ changes: [DocumentChange]) throws {
    if full { throw DiskFull() }
    tables.update { tables in
      for change in changes {
        switch change {
        case .put(let table, let key, let document):
          if let index = tables[table]?.firstIndex(where: { $0.key == key }) {
            tables[table]?[index].document = document
          } else {
            tables[table, default: []].append((key, document))
          }
        case .delete(let table, let key): tables[table]?.removeAll { $0.key == key }
        }
      }
    }
  }
}

@Suite("Supabase: a write the store refuses is neither acknowledged nor kept")
struct StoreFailureTests {
  @Test("sign-up on a full disk: 500, and the user does not exist afterwards")
  func signUpOnFullDisk() async throws {
    let store = FullDiskStore()
    let emulator = try TestEmulator(store: store)
    store.full = true
    let failed = await emulator.signUp("full@example.com")
    #expect(failed.status == 500)
    store.full = false
    let signIn = await emulator.signIn("full@example.com")
    #expect(signIn.status == 400 && signIn.errorCode == "invalid_credentials")
    let again = await emulator.signUp("full@example.com")
    #expect(again.status == 200, "the failed sign-up was kept in memory: \(again.text)")
  }

  @Test("a sign-in that cannot be stored leaves no session behind, earlier data intact")
  func signInOnFullDisk() async throws {
    let store = FullDiskStore()
    let emulator = try TestEmulator(store: store)
    let first = await emulator.signUp("kept@example.com")
    #expect(first.status == 200)
    let sessionsBefore = emulator.emulator.supabase.state.read { $0.sessions.count }
    store.full = true
    #expect(await emulator.signIn("kept@example.com").status == 500)
    #expect(emulator.emulator.supabase.state.read { $0.sessions.count } == sessionsBefore)
    store.full = false
    #expect(await emulator.refresh(first.json.refreshToken).status == 200)
  }

  @Test("Firebase: sign-up on a full disk is a 500 and leaves no account")
  func firebaseSignUpOnFullDisk() async throws {
    let store = FullDiskStore()
    let harness = try FirebaseHarness(store: store)
    store.full = true
    let failed = await harness.call(
      "signUp", ["email": "full@example.com", "password": "secret1", "returnSecureToken": true])
    #expect(failed.status == 500)
    store.full = false
    #expect(await harness.signIn("full@example.com").status == 400)
    #expect(await harness.signUp("full@example.com").status == 200)
  }
}
