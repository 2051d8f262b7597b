import CPq
import Dispatch

/// One libpq connection. libpq blocks its caller for a whole connect or statement, so every call
/// runs on the connection's own serial dispatch queue — a thread outside Swift's concurrency pool,
/// which the awaiting task never occupies. The connect is bounded by libpq's `connect_timeout`
/// (the command's timeout, see `DatabaseURL.connectionParameters`); statements, as before libpq,
/// by none (pages of at most 1,000 rows), but cancelling the task (Ctrl-C) asks the server to
/// stop the running one (PQcancel) and the statement ends with `CancellationError`. Results are
/// copied to Swift strings before they leave the queue; the handle is only ever touched on it,
/// the cancel object only by PQcancel (thread-safe) — hence `@unchecked Sendable`.
final class PqConnection: @unchecked Sendable {
  private let queue = DispatchQueue(label: "authsh-libpq")
  private var handle: UnsafeMutableRawPointer?
  private let canceller: UnsafeMutableRawPointer?

  private init(handle: UnsafeMutableRawPointer) {
    self.handle = handle
    canceller = authsh_pq_get_cancel(handle)
  }

  /// The cancel object lives as long as anything that could still call PQcancel with it.
  deinit {
    if let canceller { authsh_pq_free_cancel(canceller) }
    if let handle { authsh_pq_finish(handle) }
  }

  /// Whether libpq could be loaded (and, if not, why).
  static func availability() -> Result<String, PqFailure> {
    authsh_pq_load() == 1
      ? .success(String(cString: authsh_pq_loaded_name()))
      : .failure(.missing(String(cString: authsh_pq_load_error())))
  }

  /// PQconnectdbParams with these keyword/value pairs (libpq copies them).
  static func connect(_ parameters: [(String, String)]) async throws -> PqConnection {
    if case .failure(let failure) = availability() { throw failure }
    let queue = DispatchQueue(label: "authsh-libpq-connect")
    let outcome: Result<UnsafeMutableRawPointer, PqFailure> = await withCheckedContinuation { continuation in
      queue.async {
        continuation.resume(returning: blockingConnect(parameters))
      }
    }
    return PqConnection(handle: try outcome.get())
  }

  private static func blockingConnect(_ parameters: [(String, String)]) -> Result<UnsafeMutableRawPointer, PqFailure> {
    let handle = CStrings.with(parameters.map(\.0)) { keywords in
      CStrings.with(parameters.map(\.1)) { values in authsh_pq_connect(keywords, values) }
    }
    guard let handle else { return .failure(.connect("libpq could not make a connection (out of memory)")) }
    guard authsh_pq_status(handle) == Int32(AUTHSH_CONNECTION_OK) else {
      let message = String(cString: authsh_pq_error_message(handle))
      authsh_pq_finish(handle)
      return .failure(.connect(message))
    }
    return .success(handle)
  }

  /// PQexecParams: `parameters` travel apart from the SQL, as text ($1, $2…; nil is NULL).
  func execute(_ sql: String, _ parameters: [String?] = []) async throws -> PqRows {
    try Task.checkCancellation()
    let outcome: Result<PqRows, PqFailure> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        queue.async { [self] in
          continuation.resume(returning: blockingExecute(sql, parameters))
        }
      }
    } onCancel: { [self] in
      if let canceller { _ = authsh_pq_cancel(canceller) }
    }
    if case .failure = outcome { try Task.checkCancellation() }
    return try outcome.get()
  }

  private func blockingExecute(_ sql: String, _ parameters: [String?]) -> Result<PqRows, PqFailure> {
    guard let handle else { return .failure(.lost("the connection is closed")) }
    let result = CStrings.with(parameters) { values in
      sql.withCString { authsh_pq_exec(handle, $0, Int32(parameters.count), values) }
    }
    guard let result else { return .failure(.lost(String(cString: authsh_pq_error_message(handle)))) }
    defer { authsh_pq_clear(result) }
    let status = authsh_pq_result_status(result)
    guard status == Int32(AUTHSH_PGRES_TUPLES_OK) || status == Int32(AUTHSH_PGRES_COMMAND_OK) else {
      let state = Self.field(result, AUTHSH_PG_DIAG_SQLSTATE)
      let message =
        Self.field(result, AUTHSH_PG_DIAG_MESSAGE_PRIMARY) ?? String(cString: authsh_pq_result_error_message(result))
      guard let state else { return .failure(.lost(message)) }
      return .failure(.statement(sqlState: state, message: message))
    }
    let rowCount = Int(authsh_pq_ntuples(result))
    let fieldCount = Int(authsh_pq_nfields(result))
    var rows: [[String?]] = []
    rows.reserveCapacity(rowCount)
    for row in 0..<rowCount {
      rows.append(
        (0..<fieldCount).map { column in
          authsh_pq_getisnull(result, Int32(row), Int32(column)) == 1
            ? nil : String(cString: authsh_pq_getvalue(result, Int32(row), Int32(column)))
        })
    }
    return .success(PqRows(rows: rows))
  }

  private static func field(_ result: UnsafeMutableRawPointer, _ code: Int) -> String? {
    authsh_pq_result_error_field(result, Int32(code)).map { String(cString: $0) }
  }

  /// PQfinish (sends Terminate); waits for a statement still running on the queue.
  func finish() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      queue.async { [self] in
        if let handle { authsh_pq_finish(handle) }
        handle = nil
        continuation.resume()
      }
    }
  }
}

/// A statement's rows, every value as text (nil: SQL NULL).
struct PqRows: Sendable {
  var rows: [[String?]]
}

/// What libpq reported, before `DatabaseErrors` turns it into the catalogue's codes.
enum PqFailure: Error, Sendable, Equatable {
  /// libpq.so.5 (or a function authsh needs) could not be loaded.
  case missing(String)
  /// The connection was not made: libpq's message (refused, host not found, password…).
  case connect(String)
  /// The server refused a statement.
  case statement(sqlState: String, message: String)
  /// A statement failed without the server's word (the connection broke).
  case lost(String)
}

/// NUL-terminated copies of Swift strings for the length of a C call.
enum CStrings {
  static func with<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies: [UnsafeMutableBufferPointer<CChar>?] = strings.map { string in
      guard let string else { return nil }
      let bytes = string.utf8CString
      let copy = UnsafeMutableBufferPointer<CChar>.allocate(capacity: bytes.count)
      _ = copy.initialize(from: bytes)
      return copy
    }
    defer { for copy in copies { copy?.deallocate() } }
    return body(copies.map { $0?.baseAddress.map { UnsafePointer($0) } } + [nil])
  }
}
