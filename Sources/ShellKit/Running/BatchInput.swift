import AuthCore
import Essentials
import JSONKit

/// One account named in `--from FILE`: the text as given, or why the line names none.
package struct BatchEntry: Sendable, Equatable {
  package var input: String
  /// Why this line is not an address or id (it is reported, the rest go on).
  package var problem: String?
  /// `--resume`: the outcome the account had in the earlier run's report.
  package var previous: BatchOutcome?

  package init(input: String, problem: String? = nil) {
    self.input = input
    self.problem = problem
  }

  /// The outcome of a line that names no account (`failed`, `validation_failed`, with why);
  /// nil for an address or id.
  package var problemRecord: BatchRecord? {
    problem.map { BatchRecord(input: input, outcome: .failed, code: ErrorCode.validationFailed.rawValue, message: $0) }
  }

  /// What makes two entries the same account before anything is asked: an address in any case,
  /// an id exactly as written.
  package var key: String { input.contains("@") ? input.lowercased() : input }
}

/// The accounts of a batch, each once, and how many lines named one already listed.
package struct BatchList: Sendable, Equatable {
  package var entries: [BatchEntry] = []
  package var duplicates = 0
  private var seen: Set<String> = []

  package init() {}

  /// Adds `entry` unless its account is already listed. Lines that name no account are kept
  /// each: every one is reported.
  package mutating func add(_ entry: BatchEntry) {
    guard entry.problem == nil else {
      entries.append(entry)
      return
    }
    guard seen.insert(entry.key).inserted else {
      duplicates += 1
      return
    }
    entries.append(entry)
  }
}

/// The accounts of a bulk change, read from the arguments and `--from FILE` as a stream of
/// capped lines. Three shapes, told by the first line that is not blank or a comment: JSON lines
/// (a `--report` file; `input`, else `email`, else `id`; with `onlyFailed` just the lines whose
/// `outcome` is `failed`), CSV (a header with an `email` or `id` column, read as records by
/// `CSVRecordReader`: a value comes only from that column of a record, never from text inside
/// another field, however many lines that field spans) or one address or id per line.
package enum BatchInput {
  /// More accounts than this in one batch is a usage error: split the file.
  package static let maximumEntries = 1_000_000
  /// One line (and one CSV record) of `--from` at most: an export's row with its metadata fits.
  package static let recordLimit = 64 * 1024

  static func read(arguments: [String], lines: any InputLines, name: String, onlyFailed: Bool) throws -> BatchList {
    var list = BatchList()
    for argument in arguments { list.add(entry(argument)) }
    var reader = PhysicalLines(lines: lines, name: name)
    guard let (first, firstNumber) = try reader.nextContent() else { return list }
    if first.hasPrefix("{") {
      var line: (String, Int)? = (first, firstNumber)
      while let (text, _) = line {
        if let entry = reportEntry(text, onlyFailed: onlyFailed) { list.add(entry) }
        try checkSize(list, name: name)
        line = try reader.nextContent()
      }
      return list
    }
    if onlyFailed {
      throw AuthError(.usage, message: "--only-failed reads a --report file (JSON lines); \(name) is not one.")
    }
    let names = CSVRows.header(first)
    guard let columns = Columns(names) else {
      // One address or id a line.
      var line: (String, Int)? = (first, firstNumber)
      while let (text, _) = line {
        list.add(entry(text))
        try checkSize(list, name: name)
        line = try reader.nextContent()
      }
      return list
    }
    // The header line is read; records start on the line after it.
    var records = CSVRecordReader(maxRecordBytes: recordLimit) { try reader.next()?.0 }
    do {
      while let record = try records.next() {
        let line = record.line + firstNumber
        if record.isBlank || record.fields[0].hasPrefix("#") { continue }
        list.add(columns.entry(record, line: line))
        try checkSize(list, name: name)
      }
    } catch let error as CSVReadError {
      throw AuthError(
        .usage, message: "Line \(error.line + firstNumber) of \(name): \(error.message); nothing was sent.")
    }
    return list
  }

  static func checkSize(_ list: BatchList, name: String) throws {
    if list.entries.count > maximumEntries {
      throw AuthError(
        .usage, message: "\(name) names more than \(maximumEntries) accounts: split it into smaller batches.")
    }
  }

  /// Where the account is in a CSV record.
  struct Columns {
    let email: Int?
    let id: Int?
    let count: Int

    init?(_ names: [String]) {
      email = names.firstIndex(of: "email")
      id = names.firstIndex(of: "id") ?? names.firstIndex(of: "uid") ?? names.firstIndex(of: "localid")
      count = names.count
      guard email != nil || id != nil else { return nil }
    }

    /// The record's address (else its id), or why it names none. A record with other than the
    /// header's number of fields is refused whole: its columns cannot be trusted.
    func entry(_ record: CSVRecord, line: Int) -> BatchEntry {
      let fields = record.fields
      guard fields.count == count else {
        return BatchEntry(
          input: "line \(line)",
          problem: "Line \(line) has \(fields.count) fields where the header names \(count): skipped.")
      }
      let email = self.email.map { fields[$0].trimmingWhitespace } ?? ""
      let id = self.id.map { fields[$0].trimmingWhitespace } ?? ""
      if !email.isEmpty { return BatchInput.entry(email) }
      if !id.isEmpty { return BatchInput.entry(id) }
      return BatchEntry(input: "line \(line)", problem: "Line \(line) has no email or id.")
    }
  }

  /// An address, id or E.164 phone number, or the reason the text is none of them.
  package static func entry(_ text: String) -> BatchEntry {
    let value = text.trimmingWhitespace
    // A number as typed (`+1 555 123-4567`) is listed as its digits, so two spellings are one account.
    if let number = UserReference.e164(value) { return BatchEntry(input: number) }
    if value.contains("@") {
      // As the EMAIL argument of the same command takes it (`Command.accountArgument`).
      return Validator.isAccountAddress(value)
        ? BatchEntry(input: value) : BatchEntry(input: value, problem: "'\(shown(value))' is not an e-mail address.")
    }
    let idCharacters = value.unicodeScalars.allSatisfy {
      $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.:".unicodeScalars.contains($0))
    }
    guard !value.isEmpty, value.count <= 128, idCharacters else {
      return BatchEntry(
        input: value, problem: "'\(shown(value))' is not an e-mail address, a user id or an E.164 phone number.")
    }
    return BatchEntry(input: value)
  }

  static func shown(_ text: String) -> String { text.count > 60 ? String(text.prefix(59)) + "…" : text }

  private static func reportEntry(_ line: String, onlyFailed: Bool) -> BatchEntry? {
    guard let json = try? JSON.parse(line), let object = json.object else {
      return BatchEntry(input: line, problem: "'\(shown(line))' is not a JSON line of a report.")
    }
    if onlyFailed, object["outcome"]?.string != BatchOutcome.failed.rawValue { return nil }
    guard let text = object["input"]?.string ?? object["email"]?.string ?? object["id"]?.string else {
      return BatchEntry(input: line, problem: "'\(shown(line))' has no input, email or id.")
    }
    return entry(text)
  }
}

/// The lines of `--from` with their numbers; read errors become usage errors naming the file.
struct PhysicalLines {
  let lines: any InputLines
  let name: String
  private(set) var number = 0

  init(lines: any InputLines, name: String) {
    self.lines = lines
    self.name = name
  }

  mutating func next() throws -> (String, Int)? {
    do {
      guard let line = try lines.nextLine() else { return nil }
      number += 1
      return (line, number)
    } catch let long as InputLineTooLong {
      throw AuthError(
        .usage,
        message:
          "Line \(long.line) of \(name) is longer than \(long.limit) bytes: it is not an account; nothing was sent.")
    } catch is ReadingStopped {
      throw AuthError.cancelledBeforeSending("Stopped while \(name) was being read: nothing was sent.")
    } catch {
      throw AuthError(.usage, message: "Cannot read \(name): \(SystemError.reason(error)).")
    }
  }

  /// The next line that is not blank or a `#` comment, trimmed.
  mutating func nextContent() throws -> (String, Int)? {
    while let (raw, number) = try next() {
      var line = raw.trimmingWhitespace
      if number == 1, line.hasPrefix("\u{FEFF}") { line = String(line.dropFirst()).trimmingWhitespace }
      if line.isEmpty || line.hasPrefix("#") { continue }
      return (line, number)
    }
    return nil
  }
}
