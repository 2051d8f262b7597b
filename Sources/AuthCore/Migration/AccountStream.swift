import Essentials
import JSONKit

/// The accounts of an account file one at a time, pulled a line at a time from `nextLine`, so a
/// file of a million accounts is read in the memory of one record. The format is told from the
/// content as `PortableAccountReader` tells it: authsh's JSONL, Firebase's `{"users":[…]}` (in any
/// layout: the list is split into its elements as bytes arrive), authsh's CSV, firebase-tools'
/// headerless CSV, a `\copy` of `auth.users`. Errors name the line: `PortableAccountError`, or
/// `AccountStream.NotText` for bytes that are not UTF-8.
package final class AccountStream {
  package typealias NextLine = () throws -> [UInt8]?

  /// A line with bytes that are not UTF-8 (1 for the first line).
  package struct NotText: Error, Equatable {
    package let line: Int
    package init(line: Int) { self.line = line }
  }

  package private(set) var format = AccountFileFormat.jsonl
  /// The number of the last line read.
  package private(set) var lineNumber = 0
  private let nextLine: NextLine
  private let hashConfig: FirebaseHashConfig?
  private var mode: Mode = .start
  private var pending: [UInt8]?
  private var index = 0
  /// firebase-tools' CSV has no header: its first row, read while telling the format.
  private var queued: PortableAccount?

  private enum Mode {
    case start, jsonl, firebase(FirebaseUsersSplitter), ended
    case csv(CSVRecordReader, CSVKind)
  }

  private enum CSVKind { case firebase, authUsers([String]), portable([String]) }

  package init(hashConfig: FirebaseHashConfig?, nextLine: @escaping NextLine) {
    self.hashConfig = hashConfig
    self.nextLine = nextLine
  }

  /// The accounts of a text already in memory (standard input, tests).
  package convenience init(text: String, hashConfig: FirebaseHashConfig?) {
    var lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).makeIterator()
    self.init(hashConfig: hashConfig) { lines.next().map(Array.init) }
  }

  /// A record as read, before it is made an account (`account(_:hashConfig:)`, which may run on
  /// any thread: an import turns records into accounts on every core while this reads on).
  package enum Record: Sendable {
    case account(PortableAccount)
    case jsonl([UInt8], line: Int)
    case firebase([UInt8], index: Int, line: Int)
  }

  /// The most one account's record may take (a CSV record has the same cap in `CSVRecordReader`):
  /// Firebase refuses a whole batchCreate call for one larger account.
  package static let accountLimit = 1 << 20

  /// The next account; nil at the end of the file.
  package func next() throws -> PortableAccount? {
    try nextRecord().map { try Self.account($0, hashConfig: hashConfig) }
  }

  /// The account of a record read by `nextRecord`; errors name its line as `next` does.
  package static func account(_ record: Record, hashConfig: FirebaseHashConfig?) throws -> PortableAccount {
    switch record {
    case .account(let account):
      return account
    case .jsonl(let line, let number):
      guard line.count <= accountLimit else {
        throw PortableAccountError(
          "line \(number): the account is \(line.count >> 10) KB, over the 1 MB an account may be")
      }
      // Trimmed as a slice of the line: a column in an error counts from the start of the line.
      return try PortableAccountReader.jsonlRecord(trimmed(line), line: number)
    case .firebase(let element, let index, let line):
      guard element.count <= accountLimit else {
        throw PortableAccountError(
          "users[\(index)] (near line \(line)) is \(element.count >> 10) KB, over the 1 MB an account may be")
      }
      let json: JSON
      do { json = try JSON.parse(bytes: element) } catch {
        throw PortableAccountError("users[\(index)] (near line \(line)) is not valid JSON")
      }
      return try PortableAccountReader.firebaseAccount(json, index: index, hashConfig: hashConfig)
    }
  }

  /// The next record; nil at the end of the file.
  package func nextRecord() throws -> Record? {
    while true {
      if let queued {
        self.queued = nil
        return .account(queued)
      }
      switch mode {
      case .ended:
        return nil
      case .start:
        try begin()
      case .jsonl:
        guard let line = try line() else { return finish() }
        if Self.trimmed(line).isEmpty { continue }
        return .jsonl(line, line: lineNumber)
      case .firebase(var splitter):
        if let element = splitter.nextElement() {
          mode = .firebase(splitter)
          defer { index += 1 }
          return .firebase(element, index: index, line: lineNumber)
        }
        guard let line = try line() else {
          try splitter.finish()
          return finish()
        }
        try splitter.feed(line, line: lineNumber)
        mode = .firebase(splitter)
      case .csv(var reader, let kind):
        let record: CSVRecord?
        do { record = try reader.next() } catch let error as CSVReadError {
          throw PortableAccountError(error.description)
        }
        mode = .csv(reader, kind)
        guard let record else { return finish() }
        if record.isBlank { continue }
        if let account = try csvAccount(record, kind) { return .account(account) }
      }
    }
  }

  private func finish() -> Record? {
    mode = .ended
    return nil
  }

  /// The next line, checked as UTF-8 text (a byte-order mark on the first dropped).
  private func line() throws -> [UInt8]? {
    if let pending {
      self.pending = nil
      return pending
    }
    guard var bytes = try nextLine() else { return nil }
    lineNumber += 1
    if lineNumber == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    guard String(validating: bytes, as: UTF8.self) != nil else { throw NotText(line: lineNumber) }
    return bytes
  }

  /// Looks at the first line that is not blank and decides the format.
  private func begin() throws {
    var first: [UInt8]?
    while let line = try line() {
      if !Self.trimmed(line).isEmpty {
        first = line
        break
      }
    }
    guard let first else {
      mode = .ended
      return
    }
    pending = first
    let trimmed = Self.trimmed(first)
    if trimmed.first == UInt8(ascii: "{") {
      // A line that is a whole object is JSONL (unless it is Firebase's file on one line); an
      // object that goes on over lines is Firebase's `{"users":[…]}` as firebase-tools writes it.
      let parsed = try? JSON.parse(bytes: trimmed)
      let opensFirebase = trimmed.count == 1 || first.firstRange(of: Array(#""users""#.utf8)) != nil
      if parsed.map({ $0["users"] != nil }) ?? opensFirebase {
        format = .firebase
        mode = .firebase(FirebaseUsersSplitter())
      } else {
        mode = .jsonl
      }
      return
    }
    var reader = CSVRecordReader { [unowned self] in try self.line().map { String(decoding: $0, as: UTF8.self) } }
    // firebase-tools' rows have no header: an id, an address, then true or false. Its quoting is
    // read its own way from the first row on.
    let leading = trimmed.split(separator: UInt8(ascii: ","), maxSplits: 3, omittingEmptySubsequences: false)
    if leading.count > 3, !leading[0].isEmpty, [Array("true".utf8), Array("false".utf8)].contains(Array(leading[2])) {
      reader.firebaseQuotes = true
    }
    let header: CSVRecord?
    do { header = try reader.next() } catch let error as CSVReadError { throw PortableAccountError(error.description) }
    guard let header else {
      mode = .ended
      return
    }
    if AccountCSVFormats.isFirebaseRow(header.fields) {
      format = .firebaseCSV
      mode = .csv(reader, .firebase)
      // No header: the first row is an account.
      queued = try csvAccount(header, .firebase)
      return
    }
    if AccountCSVFormats.isAuthUsersHeader(header.fields) {
      format = .authUsers
      mode = .csv(reader, .authUsers(header.fields))
      return
    }
    try PortableAccountReader.checkPortableHeader(header)
    format = .csv
    mode = .csv(reader, .portable(header.fields))
  }

  private func csvAccount(_ record: CSVRecord, _ kind: CSVKind) throws -> PortableAccount? {
    switch kind {
    case .firebase:
      do {
        let json = try AccountCSVFormats.firebaseJSON(record.fields)
        return try PortableAccountReader.firebaseAccount(
          json, index: 0, hashConfig: hashConfig, label: "line \(record.line)")
      } catch let error as PortableAccountError where !error.message.hasPrefix("line ") {
        throw PortableAccountError("line \(record.line): \(error.message)")
      }
    case .authUsers(let header):
      guard record.fields.count == header.count else {
        throw PortableAccountReader.fieldCount(record, header: header)
      }
      do { return try AccountCSVFormats.authUsersAccount(header, record.fields) } catch let error
        as PortableAccountError
      {
        throw PortableAccountError("line \(record.line): \(error.message)")
      }
    case .portable(let header):
      return try PortableAccountReader.portableRow(record, header: header)
    }
  }

  static func trimmed(_ line: [UInt8]) -> ArraySlice<UInt8> {
    let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0B || $0 == 0x0C }
    guard let first = line.firstIndex(where: { !isSpace($0) }), let last = line.lastIndex(where: { !isSpace($0) })
    else { return [] }
    return line[first...last]
  }
}
