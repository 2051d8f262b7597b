/// Base64 text, the one codec of the package: RFC 4648's standard alphabet (§4) and its URL-safe
/// one (§5), over Foundation's `Data` codec. Hashes, salts and keys travel in either alphabet,
/// padded or not (Google's APIs and GoTrue disagree); JWT segments and PKCE challenges are URL-safe
/// without padding.
package enum Base64 {
  /// Standard alphabet, padded.
  package static func encode(_ bytes: some Collection<UInt8>) -> String { Data(bytes).base64EncodedString() }

  /// URL-safe alphabet, no padding (a JWT segment, a PKCE challenge).
  package static func encodeURL(_ bytes: some Collection<UInt8>) -> String {
    String(
      encode(bytes).compactMap { character -> Character? in
        switch character {
        case "+": return "-"
        case "/": return "_"
        case "=": return nil
        default: return character
        }
      })
  }

  /// `text` (either alphabet, padded or not, surrounding white space ignored) in the standard
  /// alphabet with padding; not checked further.
  package static func standard(_ text: String) -> String { padded(trimmed(text)) }

  /// The bytes of base64 in either alphabet, padded or not; nil when it is not base64 (white
  /// space or a `=` inside included).
  package static func decode(_ text: String) -> [UInt8]? {
    let body = text.utf8.reversed().drop { $0 == UInt8(ascii: "=") }
    guard body.count % 4 != 1, body.allSatisfy(isAlphabet) else { return nil }
    return Data(base64Encoded: padded(text[...])).map { Array($0) }
  }

  /// A letter of either alphabet.
  private static func isAlphabet(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default: return "+/-_".utf8.contains(byte)
    }
  }

  /// The standard alphabet, the trailing `=`s made right.
  private static func padded(_ text: Substring) -> String {
    var body = text
    while body.last == "=" { body.removeLast() }
    var result = String(body.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
    let remainder = result.utf8.count % 4
    if remainder > 0 { result += String(repeating: "=", count: 4 - remainder) }
    return result
  }

  private static func trimmed(_ text: String) -> Substring {
    let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
    let end = text.lastIndex { !$0.isWhitespace }.map { text.index(after: $0) } ?? start
    return text[start..<max(start, end)]
  }
}
