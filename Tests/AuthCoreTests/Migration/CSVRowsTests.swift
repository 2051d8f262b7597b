import AuthCore
import AuthTestSupport
import Essentials
import Testing

/// The one CSV reader: whatever a field holds (quotes, commas, line breaks, a byte-order mark,
/// CRLF), every value read back is a field of the record it was written in.
@Suite struct CSVRowsTests {
  /// RFC 4180 as a careful writer does it: a field is quoted when it holds a quote, comma or line
  /// break, a quote doubled inside.
  static func write(_ records: [[String]], lineEnd: String) -> String {
    records.map { fields in
      fields.map { field in
        field.unicodeScalars.contains { "\",\n\r".unicodeScalars.contains($0) } || field.hasPrefix("\u{FEFF}")
          ? "\"" + field.replacingAll("\"", with: "\"\"") + "\"" : field
      }.joined(separator: ",")
    }.joined(separator: lineEnd) + lineEnd
  }

  static let alphabet: [String] = [
    "a", "@", ",", "\"", "\n", "\r\n", " ", "é", "\u{FEFF}", "x,y", "\"\"", "#", "e@x.io",
  ]

  @Test func randomRecordsReadBackFieldForField() throws {
    var random = SplitMix64(seed: 0x5EED)
    for round in 0..<400 {
      let width = Int.random(in: 1...5, using: &random)
      let records: [[String]] = (0..<Int.random(in: 1...6, using: &random)).map { _ in
        (0..<width).map { _ in
          (0..<Int.random(in: 0...6, using: &random)).map { _ in Self.alphabet.randomElement(using: &random)! }.joined()
        }
      }
      // A record of one empty field is a blank line; the reader gives it back as such.
      let lineEnd = round % 2 == 0 ? "\n" : "\r\n"
      let bom = round % 3 == 0 ? "\u{FEFF}" : ""
      let text = bom + Self.write(records, lineEnd: lineEnd)
      let read = try CSVRows.parse(text)
      #expect(read == records, "round \(round): \(text.debugDescription)")
    }
  }

  @Test func aQuotedLineBreakStaysInsideItsField() throws {
    let records = try CSVRows.records(
      "id,email,name\n1,a@example.com,\"Evil\nB,ada@example.com,C\"\n2,b@example.com,Bob\n")
    #expect(
      records.map(\.fields) == [
        ["id", "email", "name"], ["1", "a@example.com", "Evil\nB,ada@example.com,C"], ["2", "b@example.com", "Bob"],
      ])
    #expect(records.map(\.line) == [1, 2, 4])
  }

  @Test func aQuoteNeverClosedOrARecordWithoutEndIsAnErrorNamingItsLine() {
    #expect(throws: CSVRows.ParseError.self) { try CSVRows.parse("a,b\n1,\"open\n2,3\n") }
    var lines = ["a,\"b"]
    var endless = CSVRecordReader(maxRecordBytes: 1000) {
      lines.append(String(repeating: "z", count: 100))
      return lines.removeFirst()
    }
    #expect(
      throws: CSVReadError(
        line: 1, message: "the record that starts here is longer than 1000 bytes (a quote never closed?)")
    ) {
      try endless.next()
    }
    var once: String? = String(repeating: "z", count: 2000)
    var long = CSVRecordReader(maxRecordBytes: 1000) {
      defer { once = nil }
      return once
    }
    #expect(throws: CSVReadError(line: 1, message: "the line is longer than 1000 bytes")) { try long.next() }
  }

  @Test func looseQuotingAsSpreadsheetsWriteItIsReadAsMeant() throws {
    #expect(try CSVRows.parse("a\"b,\"c\"d\n") == [["a\"b", "cd"]])
  }
}
