/// RFC 4180 CSV: fields separated by commas, quoted with `"` (a quote doubled inside), rows by
/// CRLF or LF. `user import` and `run --data` both read with it (CSV.swift, which `run --data`
/// used before, reads through Foundation's NSString and streams: 44 MB of ICU in the binary).
public enum CSVRows {
  public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  /// The rows; a blank line is one row of one empty field.
  public static func parse(_ text: String) throws(ParseError) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    // A byte-order mark (spreadsheets write one) is not part of the first field.
    var characters = Array(text.hasPrefix("\u{FEFF}") ? text.dropFirst() : text[...]).makeIterator()
    var pending: Character? = nil
    func next() -> Character? {
      if let held = pending {
        pending = nil
        return held
      }
      return characters.next()
    }
    while let character = next() {
      if quoted {
        if character == "\"" {
          if let after = next() {
            if after == "\"" { field.append("\"") } else {
              quoted = false
              pending = after
            }
          } else {
            quoted = false
          }
        } else {
          field.append(character)
        }
        continue
      }
      switch character {
      case "\"" where field.isEmpty: quoted = true
      case ",":
        row.append(field)
        field = ""
      case "\n", "\r\n":
        row.append(field)
        rows.append(row)
        row = []
        field = ""
      case "\r": continue
      default: field.append(character)
      }
    }
    if quoted { throw ParseError(message: "the CSV ends inside a quoted field") }
    if !field.isEmpty || !row.isEmpty {
      row.append(field)
      rows.append(row)
    }
    return rows
  }
}
