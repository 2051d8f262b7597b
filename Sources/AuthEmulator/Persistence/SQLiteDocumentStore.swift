import CSQLite
import Essentials
import JSONKit
import Synchronization

/// `--state FILE`: JSON documents in one SQLite table, `documents(tbl, key, doc)`.
///
/// WAL with `synchronous=NORMAL`: a commit is in the WAL file (the OS page cache) when `put`
/// returns, so a `kill -9` of the emulator loses nothing acknowledged (a power cut may lose the
/// last commits, as with any NORMAL-mode SQLite). One connection behind a mutex: thread-safe.
///
/// One process at a time: the file is locked (`flock`) while it is open, and a second store on the
/// same file fails with `StateFileInUseError`. New files are created 0600 (SQLite gives `-wal` and
/// `-shm` the same mode): they hold password hashes and tokens. `close()` checkpoints the WAL into
/// the main file, so a stopped emulator leaves one self-contained file.
package final class SQLiteDocumentStore: DocumentStore, Sendable {
  package let path: String
  private let connection: Mutex<Connection>
  private let fileLock: StateFileLock

  package init(path: String) throws {
    self.path = path
    fileLock = try StateFileLock(path: path)
    connection = Mutex(try Connection(path: path))
  }

  deinit { close() }

  /// Checkpoints the WAL into the main file (TRUNCATE), closes the database and releases the file
  /// lock. Later writes throw. Idempotent.
  package func close() {
    connection.withLock { connection in
      guard !connection.closed else { return }
      connection.close(path: path)
      fileLock.release()
    }
  }

  /// Why `close()` left the data in the `-wal` file (a full disk), or nil.
  package var closeProblem: String? { connection.withLock { $0.checkpointFailure } }

  package func put(_ table: String, key: String, _ document: JSON) throws {
    try connection.withLock { connection in
      try connection.checkOpen(path)
      try connection.run(connection.putStatement, [table, key, document.compactText])
    }
  }

  package func delete(_ table: String, key: String) throws {
    try connection.withLock { connection in
      try connection.checkOpen(path)
      try connection.run(connection.deleteStatement, [table, key])
    }
  }

  package func deleteAll(_ table: String) throws {
    try connection.withLock { connection in
      try connection.checkOpen(path)
      try connection.run(connection.deleteAllStatement, [table])
    }
  }

  package func apply(_ changes: [DocumentChange]) throws {
    guard !changes.isEmpty else { return }
    try connection.withLock { connection in
      try connection.checkOpen(path)
      try Connection.exec(connection.db, "BEGIN IMMEDIATE")
      do {
        for change in changes {
          switch change {
          case .put(let table, let key, let document):
            try connection.run(connection.putStatement, [table, key, document.compactText])
          case .delete(let table, let key): try connection.run(connection.deleteStatement, [table, key])
          }
        }
        try Connection.exec(connection.db, "COMMIT")
      } catch {
        try? Connection.exec(connection.db, "ROLLBACK")
        throw error
      }
    }
  }

  /// Every document of a table in insertion order. Rows that are not JSON are skipped and
  /// listed in `unreadableRows`.
  package func loadAll(_ table: String) throws -> [(key: String, document: JSON)] {
    try connection.withLock { connection in
      try connection.checkOpen(path)
      return try connection.loadAll(table)
    }
  }

  package func noteUnreadable(_ table: String, key: String) {
    connection.withLock { $0.noteUnreadable(table, key: key) }
  }

  /// Keys of the rows `loadAll` skipped because they are not JSON, by table.
  package var unreadableRows: [String: [String]] { connection.withLock { $0.unreadable } }
}

/// The one SQLite connection, its prepared statements and what was noted about it; only ever used
/// inside `SQLiteDocumentStore`'s mutex.
private struct Connection {
  let db: OpaquePointer
  let putStatement: OpaquePointer
  let deleteStatement: OpaquePointer
  let deleteAllStatement: OpaquePointer
  let loadStatement: OpaquePointer
  var closed = false
  var checkpointFailure: String?
  var unreadable: [String: [String]] = [:]

  init(path: String) throws {
    var handle: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(handle)
      throw SQLiteError("cannot open \(path): \(message)")
    }
    db = handle
    do {
      sqlite3_busy_timeout(handle, 5000)
      try Self.exec(handle, "PRAGMA journal_mode=WAL")
      try Self.exec(handle, "PRAGMA synchronous=NORMAL")
      try Self.exec(
        handle,
        "CREATE TABLE IF NOT EXISTS documents(tbl TEXT NOT NULL, key TEXT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY(tbl, key))"
      )
      putStatement = try Self.prepare(
        handle,
        "INSERT INTO documents(tbl, key, doc) VALUES(?1, ?2, ?3) ON CONFLICT(tbl, key) DO UPDATE SET doc = excluded.doc"
      )
      deleteStatement = try Self.prepare(handle, "DELETE FROM documents WHERE tbl = ?1 AND key = ?2")
      deleteAllStatement = try Self.prepare(handle, "DELETE FROM documents WHERE tbl = ?1")
      loadStatement = try Self.prepare(handle, "SELECT key, doc FROM documents WHERE tbl = ?1 ORDER BY rowid")
    } catch {
      sqlite3_close_v2(handle)
      throw error
    }
  }

  mutating func close(path: String) {
    closed = true
    for statement in [putStatement, deleteStatement, deleteAllStatement, loadStatement] { sqlite3_finalize(statement) }
    var logFrames: Int32 = 0
    var checkpointed: Int32 = 0
    let status = sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &checkpointed)
    if status != SQLITE_OK {
      // SQLite keeps the -wal file when its checkpoint fails: the data is there, not in the main file.
      checkpointFailure =
        "the write-ahead log could not be copied into \(path) (\(message())); the data is in \(path)-wal, keep it beside \(path)"
    }
    sqlite3_close_v2(db)
  }

  mutating func loadAll(_ table: String) throws -> [(key: String, document: JSON)] {
    defer { sqlite3_reset(loadStatement) }
    try bind(loadStatement, [table])
    var rows: [(key: String, document: JSON)] = []
    while true {
      let step = sqlite3_step(loadStatement)
      if step == SQLITE_DONE { break }
      guard step == SQLITE_ROW else { throw SQLiteError(message()) }
      let key = Self.column(loadStatement, 0)
      if let document = try? JSON.parse(Self.column(loadStatement, 1)) {
        rows.append((key, document))
      } else {
        noteUnreadable(table, key: key)
      }
    }
    return rows
  }

  mutating func noteUnreadable(_ table: String, key: String) {
    if !(unreadable[table]?.contains(key) ?? false) { unreadable[table, default: []].append(key) }
  }

  func checkOpen(_ path: String) throws {
    if closed { throw SQLiteError("\(path) is closed") }
  }

  func run(_ statement: OpaquePointer, _ values: [String]) throws {
    defer { sqlite3_reset(statement) }
    try bind(statement, values)
    guard sqlite3_step(statement) == SQLITE_DONE else { throw SQLiteError(message()) }
  }

  private func bind(_ statement: OpaquePointer, _ values: [String]) throws {
    sqlite3_clear_bindings(statement)
    for (index, value) in values.enumerated() {
      let result = sqlite3_bind_text(statement, Int32(index + 1), value, -1, Self.transient)
      guard result == SQLITE_OK else { throw SQLiteError(message()) }
    }
  }

  private func message() -> String { String(cString: sqlite3_errmsg(db)) }

  private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

  private static func column(_ statement: OpaquePointer, _ index: Int32) -> String {
    guard let text = sqlite3_column_text(statement, index) else { return "" }
    return String(cString: text)
  }

  static func exec(_ db: OpaquePointer, _ sql: String) throws {
    var error: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(db, sql, nil, nil, &error) == SQLITE_OK else {
      let message = error.map { String(cString: $0) } ?? "unknown error"
      sqlite3_free(error)
      throw SQLiteError("\(sql): \(message)")
    }
  }

  private static func prepare(_ db: OpaquePointer, _ sql: String) throws -> OpaquePointer {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw SQLiteError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
    }
    return statement
  }
}

package struct SQLiteError: Error, CustomStringConvertible, Sendable {
  package let description: String
  init(_ description: String) { self.description = description }
}
