import JSONKit
import Testing

@Suite struct JSONTests {
  @Test func roundTripKeepsKeyOrder() throws {
    let text = #"{"b":1,"a":[true,null,1.5,"x\n\u00e9\ud83d\ude00"],"c":{"z":-2,"y":"\""}}"#
    let value = try JSON.parse(text)
    #expect(value.compactText == #"{"b":1,"a":[true,null,1.5,"x\né😀"],"c":{"z":-2,"y":"\""}}"#)
    #expect(value["c"]?["z"]?.int == -2)
  }

  @Test(arguments: [
    "", "{", "{\"a\":}", "[1,]", "\"\\x\"", "\"\\ud800\"", "01", "1.", "-", "tru", "{\"a\" 1}", "\"a", "[1 2]", "nul", "\u{0}",
  ])
  func rejectsInvalidText(_ text: String) {
    #expect(throws: JSONParseError.self) { try JSON.parse(text) }
  }

  @Test func deepNestingIsAnErrorNotACrash() {
    let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(throws: JSONParseError.self) { try JSON.parse(text) }
  }

  /// Strings are scanned eight bytes at a time: a quote, an escape, a control character or a
  /// non-ASCII byte at any place in a word, or in the tail after the last whole word, is still seen.
  @Test func aSpecialByteAtEveryPlaceOfAStringIsSeen() throws {
    for length in 0..<20 {
      for place in 0...length {
        let before = String(repeating: "a", count: place)
        let after = String(repeating: "b", count: length - place)
        #expect(try JSON.parse("\"\(before)\\\"\(after)\"").string == before + "\"" + after)
        #expect(try JSON.parse("\"\(before)\\n\(after)\"").string == before + "\n" + after)
        #expect(try JSON.parse("\"\(before)é\(after)\"").string == before + "é" + after)
        #expect(try JSON.parse("[\"\(before)\",\"\(after)\"]")[1]?.string == after)
        #expect(throws: JSONParseError.self) { try JSON.parse("\"\(before)\u{1}\(after)\"") }
        #expect(throws: JSONParseError.self) { try JSON.parse(bytes: Array("\"\(before)".utf8) + [0xFF] + Array("\(after)\"".utf8)) }
      }
    }
  }

  @Test func lenientNumbers() throws {
    #expect(try JSON.parse(#""3600""#).intOrNumericString == 3600)
    #expect(try JSON.parse("3600.0").int == 3600)
    #expect(try JSON.parse("1.5").int == nil)
    #expect(try JSON.parse("true").int == nil)
  }

  @Test func prettyText() throws {
    #expect(try JSON.parse(#"{"a":[1,{}],"b":[]}"#).prettyText == "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": []\n}")
  }

  @Test func randomBytesNeverCrash() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array(#"{}[]:,"\\u0123456789abcdef-+.eEtrufalsn "#.utf8)
    for _ in 0..<20_000 {
      let bytes = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
      _ = try? JSON.parse(bytes: bytes)
    }
  }
}
