import Testing

@testable import JSONKit

/// `JSON.writeString` skips eight bytes at a time where none needs an escape: generated strings
/// of every kind of byte come out as a byte-at-a-time escaper writes them, and parse back.
@Suite struct JSONStringWriterTests {
  /// The escaper the fast one must match, one byte at a time.
  static func slowly(_ value: String) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "\"")]
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out += #"\""#.utf8
      case UInt8(ascii: "\\"): out += #"\\"#.utf8
      case UInt8(ascii: "\n"): out += #"\n"#.utf8
      case UInt8(ascii: "\r"): out += #"\r"#.utf8
      case UInt8(ascii: "\t"): out += #"\t"#.utf8
      case 0x08: out += #"\b"#.utf8
      case 0x0C: out += #"\f"#.utf8
      case 0..<0x20, 0x7F:
        let hex = String(byte, radix: 16)
        out += (#"\u"# + String(repeating: "0", count: 4 - hex.count) + hex).utf8
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
    return out
  }

  @Test func generatedStringsAreWrittenAsByteAtATime() throws {
    // Pieces of every kind: plain ASCII, each byte that needs an escape, DEL, multi-byte text.
    let pieces: [String] =
      ["a", "Z", "0", " ", "~", "\"", "\\", "\u{7F}", "é", "😀", "€", "\u{1B}[31m", "\u{0}"]
      + (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<5_000 {
      let length = Int.random(in: 0...40, using: &generator)
      let text = (0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined()
      var out: [UInt8] = []
      JSON.writeString(text, to: &out)
      #expect(out == Self.slowly(text), "\(text.debugDescription)")
      #expect(try JSON.parse(String(decoding: out, as: UTF8.self)).string == text)
    }
  }

  /// A word with a byte to escape in any of its eight places is never skipped, and one without is.
  @Test func aWordWithAByteToEscapeIsNeverSkipped() {
    var generator = SystemRandomNumberGenerator()
    let escaped: [UInt8] = Array(0..<0x20) + [0x22, 0x5C, 0x7F]
    for _ in 0..<20_000 {
      // The other bytes: anything that needs no escape (ASCII or a byte of multi-byte text).
      var bytes = (0..<8).map { _ -> UInt8 in
        var byte: UInt8
        repeat { byte = UInt8.random(in: 0...255, using: &generator) } while escaped.contains(byte)
        return byte
      }
      let clean = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
      // No borrow starts without a byte to escape, so a clean word is never flagged either.
      #expect(!JSON.wordNeedsEscape(clean), "\(bytes)")
      bytes[Int.random(in: 0..<8, using: &generator)] = escaped.randomElement(using: &generator)!
      let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
      #expect(JSON.wordNeedsEscape(word), "\(bytes)")
    }
  }
}
