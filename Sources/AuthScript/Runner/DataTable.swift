import AuthCore
import Essentials
import JSONKit

/// `authsh run FILE --data table.csv|table.jsonl`: the rows a file runs once each, the columns as
/// variables. CSV has a header row (RFC 4180); its values are typed like
/// `--var` (`42` is a number); JSON lines keep their JSON types. Blank lines are skipped.
package struct DataTable: Sendable, Equatable {
  package struct Row: Sendable, Equatable {
    /// 1-based, counting data rows only (`NAME[row 3]`).
    package var number: Int
    package var variables: [String: JSON]
  }

  package var rows: [Row]
  package static let maximumRows = 10_000

  package struct LoadError: Error, Equatable {
    package var message: String
  }

  package static func load(path: String, text: String) throws(LoadError) -> DataTable {
    let rows =
      path.lowercased().hasSuffix(".jsonl") || path.lowercased().hasSuffix(".ndjson")
      ? try jsonLines(text, path: path) : try csv(text, path: path)
    guard !rows.isEmpty else { throw LoadError(message: "--data \(path) has no rows") }
    // Each row is a run of the file with a session of its own, prepared before the first starts.
    guard rows.count <= maximumRows else {
      throw LoadError(
        message: "--data \(path) has \(rows.count) rows; at most \(maximumRows) run in one go: split the table")
    }
    return DataTable(rows: rows.enumerated().map { Row(number: $0.offset + 1, variables: $0.element) })
  }

  static func csv(_ text: String, path: String) throws(LoadError) -> [[String: JSON]] {
    let table: [[String]]
    do { table = try CSVRows.parse(text) } catch { throw LoadError(message: "--data \(path) is not CSV: \(error)") }
    let header = (table.first ?? []).map { $0.trimmingSpaces }
    guard !header.isEmpty, header != [""] else {
      throw LoadError(message: "--data \(path) has no header row (the variable names)")
    }
    try checkNames(header, path: path)
    var rows: [[String: JSON]] = []
    for fields in table.dropFirst() {
      if fields.count == 1, fields[0].isEmpty { continue }
      guard fields.count == header.count else {
        throw LoadError(
          message: "--data \(path): row \(rows.count + 1) has \(fields.count) fields, the header \(header.count)")
      }
      var row: [String: JSON] = [:]
      for (name, value) in zip(header, fields) { row[name] = RunOptions.typed(value) }
      rows.append(row)
    }
    return rows
  }

  static func jsonLines(_ text: String, path: String) throws(LoadError) -> [[String: JSON]] {
    var rows: [[String: JSON]] = []
    for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
      guard !line.allSatisfy(\.isWhitespace) else { continue }
      guard let object = (try? JSON.parse(String(line)))?.object else {
        throw LoadError(message: "--data \(path):\(index + 1) is not a JSON object")
      }
      let names = object.pairs.map(\.0)
      try checkNames(names, path: path)
      rows.append(Dictionary(object.pairs.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last }))
    }
    return rows
  }

  static func checkNames(_ names: [String], path: String) throws(LoadError) {
    for name in names where RunOptions.parseVariable(name + "=") == nil {
      throw LoadError(
        message: "--data \(path): '\(name)' is not a variable name (letters, digits and _, not first a digit)")
    }
  }
}
