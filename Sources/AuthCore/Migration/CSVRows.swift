import Essentials

/// One record of a CSV file: its fields and the line it starts on (1 for the first).
package struct CSVRecord: Sendable, Equatable {
  package var fields: [String]
  package var line: Int

  package init(fields: [String], line: Int) {
    self.fields = fields
    self.line = line
  }

  /// A line with nothing on it (one empty field).
  package var isBlank: Bool { fields.count == 1 && fields[0].isEmpty }
}

/// Why a CSV file cannot be read past `line`.
package struct CSVReadError: Error, Equatable, Sendable, CustomStringConvertible {
  package var line: Int
  package var message: String
  package init(line: Int, message: String) {
    self.line = line
    self.message = message
  }
  package var description: String { "line \(line): \(message)" }
}

/// RFC 4180 CSV, the one reader of every CSV input (`--from`, `user import`, `run --data`):
/// fields separated by commas, quoted with `"` (a quote doubled inside), records ended by LF or
/// CRLF, a quoted field running on over line breaks, a byte-order mark ignored. It pulls the
/// text a line at a time from `nextLine` (a line without its LF) and keeps one record at most
/// `maxRecordBytes` long, so a file with no end (`/dev/zero`) or a quote never closed is an error
/// naming its line, not a process that grows until it is killed. Loose quoting as spreadsheets
/// and firebase-tools write it is read as they mean it: a quote inside an unquoted field is a
/// quote, and text after a closing quote joins the field.
package struct CSVRecordReader {
  package typealias NextLine = () throws -> String?
  package static let defaultRecordLimit = 1 << 20

  private let nextLine: NextLine
  let maxRecordBytes: Int
  /// The number of the last line read.
  package internal(set) var lineNumber = 0
  /// Whether the last line read ended in CRLF (a quoted line break keeps what the file had).
  var crlf = false
  /// Lines to read again before the rest (a firebase-tools row read a second way), with their CRLF.
  var replay: [(line: String, crlf: Bool)] = []
  /// While not nil, every line read is kept here too (to be read again).
  var taken: [(line: String, crlf: Bool)]?

  package init(maxRecordBytes: Int = CSVRecordReader.defaultRecordLimit, nextLine: @escaping NextLine) {
    self.maxRecordBytes = maxRecordBytes
    self.nextLine = nextLine
  }

  /// firebase-tools' rows (`firebase auth:export users.csv`): every field is followed by a comma,
  /// so a quote closes a quoted field only before one. Versions before mid-2026 wrapped a name with
  /// a comma in quotes without doubling the quotes inside (`"Smith, "Jo""`), and its claims keep a
  /// JSON `\"` undoubled: such quotes are the field's own.
  package var firebaseQuotes = false

  /// The next record, nil at the end of the text.
  package mutating func next() throws -> CSVRecord? {
    if firebaseQuotes { return try nextFirebase() }
    guard var line = try readLine() else { return nil }
    let start = lineNumber
    var fields: [String] = []
    var field = ""
    var quoted = false
    var size = line.utf8.count
    while true {
      var characters = line.unicodeScalars.makeIterator()
      while let scalar = characters.next() {
        if quoted {
          guard scalar == "\"" else {
            field.unicodeScalars.append(scalar)
            continue
          }
          guard let after = characters.next() else {
            quoted = false
            break
          }
          if after == "\"" {
            field.append("\"")
            continue
          }
          quoted = false
          if after == "," {
            fields.append(field)
            field = ""
          } else {
            field.unicodeScalars.append(after)
          }
          continue
        }
        switch scalar {
        case "\"" where field.isEmpty: quoted = true
        case ",":
          fields.append(field)
          field = ""
        default: field.unicodeScalars.append(scalar)
        }
      }
      guard quoted else { break }
      // A quoted field runs on to the next line.
      let lineEnd = crlf ? "\r\n" : "\n"
      guard let more = try readLine() else {
        throw CSVReadError(line: start, message: "the quoted field that starts here is never closed")
      }
      size += more.utf8.count + 1
      guard size <= maxRecordBytes else {
        throw CSVReadError(
          line: start,
          message: "the record that starts here is longer than \(maxRecordBytes) bytes (a quote never closed?)")
      }
      field.append(lineEnd)
      line = more
    }
    fields.append(field)
    return CSVRecord(fields: fields, line: start)
  }

  mutating func readLine() throws -> String? {
    if !replay.isEmpty {
      let again = replay.removeFirst()
      lineNumber += 1
      crlf = again.crlf
      taken?.append(again)
      return again.line
    }
    guard var line = try nextLine() else { return nil }
    lineNumber += 1
    if lineNumber == 1, line.hasPrefix("\u{FEFF}") { line.removeFirst() }
    crlf = line.utf8.last == UInt8(ascii: "\r")
    if crlf { line = String(decoding: line.utf8.dropLast(), as: UTF8.self) }
    guard line.utf8.count <= maxRecordBytes else {
      throw CSVReadError(line: lineNumber, message: "the line is longer than \(maxRecordBytes) bytes")
    }
    taken?.append((line, crlf))
    return line
  }
}

/// A whole CSV text in memory, read with `CSVRecordReader`.
package enum CSVRows {
  package struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
  }

  /// The rows; a blank line is one row of one empty field.
  package static func parse(_ text: String) throws(ParseError) -> [[String]] {
    try records(text).map(\.fields)
  }

  /// The records with their line numbers.
  package static func records(_ text: String, maxRecordBytes: Int = CSVRecordReader.defaultRecordLimit)
    throws(ParseError) -> [CSVRecord]
  {
    // Split on the byte: "\r\n" is one Character, and CRLF lines lose their CR in the reader.
    var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)[...]
    if lines.last?.isEmpty == true { lines.removeLast() }
    var reader = CSVRecordReader(maxRecordBytes: maxRecordBytes) {
      lines.popFirst().map { String(decoding: $0, as: UTF8.self) }
    }
    var records: [CSVRecord] = []
    do {
      while let record = try reader.next() { records.append(record) }
    } catch let error as CSVReadError {
      throw ParseError(
        message: error.message.contains("never closed") ? "the CSV ends inside a quoted field (\(error))" : "\(error)")
    } catch {
      throw ParseError(message: "\(error)")
    }
    return records
  }
}

extension CSVRows {
  /// The column names of a header line, trimmed and lowercased; empty when the line is no CSV.
  package static func header(_ line: String) -> [String] {
    var once: String? = line
    var reader = CSVRecordReader {
      defer { once = nil }
      return once
    }
    guard let record = try? reader.next() else { return [] }
    return record.fields.map { $0.trimmingWhitespace.lowercased() }
  }
}
