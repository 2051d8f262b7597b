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
    "", "{", "{\"a\":}", "[1,]", "\"\\x\"", "\"\\ud800\"", "01", "1.", "-", "tru", "{\"a\" 1}", "\"a", "[1 2]", "nul",
    "\u{0}",
  ])
  func rejectsInvalidText(_ text: String) {
    #expect(throws: JSONParseError.self) { try JSON.parse(text) }
  }

  @Test func deepNestingIsAnErrorNotACrash() {
    let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(throws: JSONParseError.self) { try JSON.parse(text) }
  }

  /// A repeated key replaces the earlier value in its place, however the keys are written: short
  /// ones, long ones alike in their first and last eight bytes, one spelled with an escape, and
  /// the same keys in a nested object, which never meet the outer ones.
  @Test(arguments: [
    (#"{"a":1,"b":2,"a":3}"#, ["a", "b"], "a", 3),
    (#"{"long_key_name_1":1,"x":0,"long_key_name_1":2}"#, ["long_key_name_1", "x"], "long_key_name_1", 2),
    (
      #"{"created_at_x_updated_at":1,"created_at_y_updated_at":2}"#,
      ["created_at_x_updated_at", "created_at_y_updated_at"], "created_at_y_updated_at", 2
    ),
    (#"{"abcdefg":1,"abcdefgh":2,"abcdefg":3}"#, ["abcdefg", "abcdefgh"], "abcdefg", 3),
    (#"{"a":1,"\u0061":2}"#, ["a"], "a", 2),
    (#"{"\u0061":1,"b":0,"a":2}"#, ["a", "b"], "a", 2),
    (#"{"k":{"k":1,"k":2},"j":{"k":3},"k":{"k":4}}"#, ["k", "j"], "k", 4),
  ])
  func aRepeatedKeyReplacesTheEarlierValueInItsPlace(_ text: String, _ keys: [String], _ key: String, _ value: Int)
    throws
  {
    let object = try #require(try JSON.parse(text).object)
    #expect(object.keys == keys)
    let found = object[key]
    #expect(found?.int ?? found?["k"]?.int == value)
  }

  @Test func aRepeatedKeyInALargeObjectReplacesTheEarlierValue() throws {
    let members = (0..<40).map { #""member_number_\#($0)":\#($0)"# }
    let text = "{" + members.joined(separator: ",") + #","member_number_7":"again","member_number_39":true}"#
    let object = try #require(try JSON.parse(text).object)
    #expect(object.count == 40)
    #expect(object["member_number_7"]?.string == "again")
    #expect(object["member_number_39"]?.bool == true)
    #expect(object.keys == (0..<40).map { "member_number_\($0)" })
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
        #expect(throws: JSONParseError.self) {
          try JSON.parse(bytes: Array("\"\(before)".utf8) + [0xFF] + Array("\(after)\"".utf8))
        }
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
      let bytes = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in
        alphabet.randomElement(using: &generator) ?? 0
      }
      _ = try? JSON.parse(bytes: bytes)
    }
  }
}
