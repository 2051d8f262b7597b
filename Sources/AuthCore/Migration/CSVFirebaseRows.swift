/// firebase-tools' rows (`firebase auth:export users.csv`), as its `accountExporter` writes them:
/// every field followed by a comma; a display name wrapped in quotes only when it holds a comma
/// (older versions without doubling the quotes inside); the claims always quoted. So a name with
/// no comma is written bare, whatever it holds: a line break ends the line inside the name, and a
/// name that starts with a quote looks like a quoted field. Such a row is read a second way, the
/// names' quotes as their own, when the first does not give a whole row or gives a quoted name
/// without a comma (which firebase-tools would not have quoted).
extension CSVRecordReader {
  /// The places of firebase-tools' free-text fields: the account's display name, then each
  /// provider's (its four fields from 7 on, then from 28 on in the newer layout).
  static let firebaseNames: Set<Int> = [5, 9, 13, 17, 21, 30, 34, 38, 42, 46, 50]
  /// The fields of a whole row: 28 or 52, each followed by a comma (one empty field more).
  static let firebaseRowSizes: Set<Int> = [29, 53]

  /// `next` for firebase-tools' rows (`firebaseQuotes`).
  mutating func nextFirebase() throws -> CSVRecord? {
    let mark = lineNumber
    taken = []
    defer { taken = nil }
    let first = Result { try firebaseRow(bareNames: false) }
    guard case .success(let row) = first, let row, Self.firebaseRowSizes.contains(row.record.fields.count),
      !row.bareName
    else {
      // Read again with the names' quotes as their own, if a name began with one.
      let lines = taken ?? []
      let read = try? first.get()
      let quotedName = read.map { $0.quotedName } ?? lines.first.map { Self.nameOpensQuoted($0.line) } ?? false
      guard quotedName else { return try first.get()?.record }
      replay = lines + replay
      lineNumber = mark
      taken = []
      if let bare = try? firebaseRow(bareNames: true), Self.firebaseRowSizes.contains(bare.record.fields.count) {
        return bare.record
      }
      // The second reading gives no row: the first one's record (or error) stands, after its lines.
      replay = (taken ?? []) + replay
      replay.removeFirst(min(lines.count, replay.count))
      lineNumber = mark + lines.count
      crlf = lines.last?.crlf ?? false
      return try first.get()?.record
    }
    return row.record
  }

  /// Whether a row's first line has a quote where its display name starts (for a reading that
  /// threw before it could say).
  private static func nameOpensQuoted(_ line: String) -> Bool {
    let fields = line.split(separator: ",", maxSplits: 5, omittingEmptySubsequences: false)
    return fields.count == 6 && fields[5].hasPrefix("\"")
  }

  /// One row; with `bareNames`, a quote that starts a name is the name's own. `quotedName`: a
  /// name was read as quoted; `bareName`: one without a comma (firebase-tools wrote it bare).
  private mutating func firebaseRow(bareNames: Bool) throws -> (
    record: CSVRecord, quotedName: Bool, bareName: Bool
  )? {
    guard let first = try readLine() else { return nil }
    let start = lineNumber
    var line = Array(first.unicodeScalars)
    var fields: [String] = []
    var field = String.UnicodeScalarView()
    var quoted = false
    var quotedNames: [Int] = []
    // A single quote inside a quoted field: this row was written without doubling them.
    var undoubled = false
    var size = first.utf8.count
    var index = 0
    while true {
      if index == line.count {
        // A line break in a bare name ends the line mid-row, inside that name.
        let name = !quoted && Self.firebaseNames.contains(fields.count)
        guard quoted || name else { break }
        // A quoted field (or such a name) runs on to the next line; the break is the one this
        // line ended with (read before the next line is).
        let lineEnd = crlf ? "\r\n" : "\n"
        guard let more = try readLine() else {
          if name { break }
          throw CSVReadError(line: start, message: "the quoted field that starts here is never closed")
        }
        size += more.utf8.count + 1
        guard size <= maxRecordBytes else {
          throw CSVReadError(line: start, message: "the record that starts here is longer than \(maxRecordBytes) bytes")
        }
        field.append(contentsOf: lineEnd.unicodeScalars)
        line = Array(more.unicodeScalars)
        index = 0
        continue
      }
      let scalar = line[index]
      index += 1
      if !quoted {
        switch scalar {
        case "\"" where field.isEmpty:
          let name = Self.firebaseNames.contains(fields.count)
          if name && bareNames {
            field.append(scalar)
          } else {
            quoted = true
            if name { quotedNames.append(fields.count) }
          }
        case ",":
          fields.append(String(field))
          field = String.UnicodeScalarView()
        default: field.append(scalar)
        }
        continue
      }
      guard scalar == "\"" else {
        field.append(scalar)
        continue
      }
      let after = index < line.count ? line[index] : nil
      if after == "," {
        quoted = false
      } else if after == "\"" {
        // Doubled; or, in a row that does not double them, a quote of the field's own then the end.
        let closes = undoubled && (index + 1 == line.count || line[index + 1] == ",")
        field.append("\"")
        index += 1
        if closes { quoted = false }
      } else {
        undoubled = true
        field.append(scalar)
      }
    }
    fields.append(String(field))
    let bareName = quotedNames.contains { $0 < fields.count && !fields[$0].contains(",") }
    return (CSVRecord(fields: fields, line: start), !quotedNames.isEmpty, bareName)
  }
}
