import JSONKit
import Testing

@Suite struct JSONObjectTests {
  @Test func aRepeatedKeyKeepsItsFirstPlaceAndTakesTheLastValue() throws {
    let value = try JSON.parse(#"{"a":1,"b":2,"a":3}"#)
    #expect(value.compactText == #"{"a":3,"b":2}"#)
  }

  @Test func equalityIgnoresOrder() throws {
    #expect(try JSON.parse(#"{"a":1,"b":[2]}"#) == JSON.parse(#"{"b":[2],"a":1}"#))
    #expect(try JSON.parse(#"{"a":1,"b":2}"#) != JSON.parse(#"{"a":1,"c":2}"#))
    #expect(try JSON.parse(#"{"a":1}"#) != JSON.parse(#"{"a":1,"b":2}"#))
  }

  /// Past a few dozen members lookups go through an index: it must follow inserts and removals.
  @Test func aLargeObjectFindsSetsAndRemovesEveryMember() {
    var object = JSONObject()
    for number in 0..<100 { object["k\(number)"] = .int(number) }
    #expect(object.count == 100)
    for number in 0..<100 { #expect(object["k\(number)"] == .int(number)) }
    object["k7"] = nil
    object["k50"] = .string("fifty")
    object["k100"] = .int(100)
    #expect(object["k7"] == nil)
    #expect(object["k8"]?.int == 8)
    #expect(object["k50"]?.string == "fifty")
    #expect(object["k100"]?.int == 100)
    #expect(object.keys.first == "k0")
    #expect(object.keys.last == "k100")
    #expect(object.count == 100)
    #expect(!object.keys.contains("k7"))
  }

  /// ASCII strings take a shorter way than the others: both still decode, and bytes that are not
  /// UTF-8 are still refused.
  @Test func stringsDecodeWhateverTheirBytes() throws {
    #expect(try JSON.parse(bytes: Array(#"["plain","é ü","😀"]"#.utf8)) == ["plain", "é ü", "😀"])
    #expect(throws: (any Error).self) { try JSON.parse(bytes: [UInt8]([0x22, 0x61, 0xFF, 0x62, 0x22])) }
    #expect(throws: (any Error).self) { try JSON.parse(bytes: [UInt8]([0x22, 0xC3, 0x22])) }
  }
}
