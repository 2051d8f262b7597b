import AuthCore
import Essentials
import JSONKit

#if canImport(Glibc)
  import Glibc
#endif

/// `user import`'s file, read as a stream and strict: a file of no known shape, a record with the
/// wrong fields or invalid UTF-8 is `invalid_file` (exit 65) naming the line. A regular file is
/// opened again for each pass (memory: one record); a source that can be read only once (standard
/// input, a pipe, a FIFO) is copied by pass 1 to a private temporary file that pass 2 reads
/// (`ImportSpill`).
struct AccountFile {
  let path: String
  let name: String
  let hashConfig: FirebaseHashConfig?
  /// The run's stop (Ctrl-C, SIGTERM): reading and checking end there.
  let stop: BatchStop?
  /// Standard input as a test gives it, in memory.
  private let bytes: [UInt8]?
  /// The copy of a read-once source (nil: a regular file, read again).
  private let spill: Spill?

  private final class Spill {
    var copy: ImportSpill?
    var read = false
    init(_ copy: ImportSpill) { self.copy = copy }
  }

  init(
    path: String, name: String, hashConfig: FirebaseHashConfig?, _ context: ShellContext, stop: BatchStop? = nil
  ) throws {
    self.path = path
    self.name = name
    self.hashConfig = hashConfig
    self.stop = stop
    if path == "-", let readStdin = context.readStdinText {
      do { bytes = Array(try readStdin().utf8) } catch {
        throw AuthError(.usage, message: "Cannot read \(name): \(SystemError.reason(error)).")
      }
      spill = nil
      return
    }
    bytes = nil
    guard ImportSpill.isReadOnce(path) else {
      spill = nil
      return
    }
    do { spill = Spill(try ImportSpill()) } catch {
      throw AuthError(
        .usage,
        message:
          "Cannot keep a copy of \(name) for the second pass (a temporary file in $TMPDIR or /tmp): \(error); nothing was sent."
      )
    }
  }

  /// The size of a regular file in bytes (nil: standard input, a pipe, a FIFO, or no such file).
  var regularFileSize: Int? {
    guard bytes == nil, spill == nil, path != "-" else { return nil }
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    return Int(info.st_size)
  }

  /// The file as a stream of records. `stoppable` (pass 1, before anything is sent): the first
  /// Ctrl-C or SIGTERM ends the reading at once, also while a pipe has nothing to give. Pass 2
  /// reads on after a stop, so that every account gets its outcome.
  func open(stoppable: Bool = false) throws -> AccountStream {
    if let bytes {
      var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).makeIterator()
      return AccountStream(hashConfig: hashConfig) { lines.next().map(Array.init) }
    }
    let limit = ShellContext.InputCaps.accountFile.line
    if let spill, spill.read, let copy = spill.copy {
      // Pass 2: the copy pass 1 made.
      let lines: DescriptorLines
      do { lines = try copy.lines(limit: limit) } catch {
        throw AuthError(.usage, message: "Cannot read the copy of \(name): \(error).")
      }
      return AccountStream(hashConfig: hashConfig) { try lines.nextLineBytes() }
    }
    let lines: DescriptorLines
    do {
      if path != "-", isDirectory(path) == true { throw SystemError(EISDIR) }
      let fd = path == "-" ? STDIN_FILENO : try Descriptor.openForReading(path)
      lines = DescriptorLines(descriptor: fd, closeAtEnd: path != "-", limit: limit)
      if stoppable { lines.stop = stop }
    } catch {
      throw AuthError(.usage, message: "Cannot read \(name): \(SystemError.reason(error)).")
    }
    guard let spill, let copy = spill.copy else {
      return AccountStream(hashConfig: hashConfig) { try lines.nextLineBytes() }
    }
    spill.read = true
    let name = self.name
    return AccountStream(hashConfig: hashConfig) {
      guard let line = try lines.nextLineBytes() else { return nil }
      do { try copy.append(line) } catch {
        throw AuthError(
          .usage, message: "Cannot keep a copy of \(name) for the second pass: \(error); nothing was sent.")
      }
      return line
    }
  }

  /// Up to `count` accounts of `stream`, each with what `check` makes of it, in file order; fewer
  /// only at the end of the file. Records are read here and made accounts and checked on every
  /// core (`ParallelMap`); the first error in file order is the one thrown.
  func next<Checked: Sendable>(
    _ stream: AccountStream, count: Int, _ check: @Sendable (PortableAccount) -> Checked
  ) throws -> [(account: PortableAccount, checked: Checked)] {
    let (records, readError) = Self.records(stream, count: count)
    return try made(records, readError: readError, check)
  }

  /// Up to `count` records of `stream`, and the error that stopped reading early (kept: the
  /// records before it are made first, so an earlier bad record is the one named).
  private static func records(_ stream: AccountStream, count: Int) -> ([AccountStream.Record], (any Error)?) {
    var records: [AccountStream.Record] = []
    records.reserveCapacity(count)
    do {
      while records.count < count, let record = try stream.nextRecord() { records.append(record) }
    } catch {
      return (records, error)
    }
    return (records, nil)
  }

  /// The accounts of `records` with what `check` makes of them, made on every core; `meanwhile`
  /// runs once while they are made (on the first thread to start, the caller waiting). The first
  /// error in file order is thrown.
  private func made<Checked: Sendable>(
    _ records: [AccountStream.Record], readError: (any Error)?, meanwhile: () throws -> Void = {},
    _ check: @Sendable (PortableAccount) -> Checked
  ) throws -> [(account: PortableAccount, checked: Checked)] {
    let hashConfig = self.hashConfig
    let made = try ParallelMap.map(records, meanwhile: meanwhile) { record in
      Result { () throws -> (PortableAccount, Checked) in
        let account = try AccountStream.account(record, hashConfig: hashConfig)
        return (account, check(account))
      }
    }
    var accounts: [(account: PortableAccount, checked: Checked)] = []
    accounts.reserveCapacity(made.count)
    for result in made {
      do { accounts.append(try result.get()) } catch { throw told(error) }
    }
    if let readError { throw told(readError) }
    return accounts
  }

  /// The first Ctrl-C or SIGTERM while pass 1 reads: nothing was sent (exit 130).
  private var stoppedWhileChecking: AuthError {
    AuthError.cancelledBeforeSending("Stopped while \(name) was being checked: nothing was sent.")
  }

  /// An error of the stream as the user is told it.
  private func told(_ error: any Error) -> any Error {
    switch error {
    case let error as AccountStream.NotText:
      return AuthError(
        .invalidFile, message: "\(name) is not UTF-8 text: line \(error.line) has bytes no text has; nothing was sent.")
    case let error as PortableAccountError:
      return AuthError(.invalidFile, message: "\(name) is not an account export: \(error.message); nothing was sent.")
    case let long as InputLineTooLong:
      return AuthError(
        .usage,
        message: "Cannot read \(name): line \(long.line) is longer than \(long.limit >> 20) MB (is it a text file?).")
    case let error as AuthError:
      return error
    case is ReadingStopped:
      return stoppedWhileChecking
    default:
      return AuthError(.usage, message: "Cannot read \(name): \(SystemError.reason(error)).")
    }
  }

  /// Every account of the file with what `check` makes of it, to `visit` in order; the file's format.
  func read<Checked: Sendable>(
    _ check: @Sendable (PortableAccount) -> Checked, _ visit: (PortableAccount, Checked) throws -> Void
  ) throws -> AccountFileFormat {
    let stream = try open(stoppable: true)
    // A pipeline: while one batch is made on every core, the batch before it is visited and the
    // one after it read, by one thread at a time (nothing is read after an error).
    var (records, readError) = Self.records(stream, count: Self.readBatch)
    var made: [(account: PortableAccount, checked: Checked)] = []
    while !records.isEmpty {
      // A stop ends the check at once (a regular file never waits, so it is asked here too).
      if stop?.stopped == true { throw stoppedWhileChecking }
      var next: ([AccountStream.Record], (any Error)?) = ([], nil)
      let visiting = made
      made = try self.made(
        records, readError: readError,
        meanwhile: {
          for (account, checked) in visiting { try visit(account, checked) }
          if readError == nil { next = Self.records(stream, count: Self.readBatch) }
        }, check)
      (records, readError) = next
    }
    for (account, checked) in made { try visit(account, checked) }
    if let readError { throw told(readError) }
    return stream.format
  }

  /// Records read and made at a time by `read`.
  static let readBatch = 1_024
}

/// The progress of an import (`batchProgress`: the line on a terminal), fed from the importer's
/// tasks as outcomes come in.
final class ImportProgress: Sendable {
  private let total: Int
  private let report: (@Sendable (BatchProgress) -> Void)?
  private let counts = Guarded((done: 0, failures: 0))

  init(total: Int, report: (@Sendable (BatchProgress) -> Void)?) {
    self.total = total
    self.report = report
  }

  func add(_ outcomes: [ImportOutcome]) {
    guard let report else { return }
    for outcome in outcomes {
      let failed = [.failed, .unknown, .heldBack].contains(outcome.status)
      let (done, failures) = counts.update { counts in
        counts.done += 1
        if failed { counts.failures += 1 }
        return counts
      }
      let record = BatchRecord(
        input: outcome.email ?? outcome.sourceId ?? "", email: outcome.email, id: outcome.sourceId,
        outcome: failed ? .failed : .changed, code: outcome.errorCode, message: outcome.status.rawValue)
      report(BatchProgress(record: record, done: done, total: total, failures: failures, dryRun: false))
    }
  }
}
