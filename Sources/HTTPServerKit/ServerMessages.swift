import Essentials

/// A complete HTTP request as the handler sees it: the body is fully read (up to the limit).
package struct ServerRequest: Sendable {
  package var method: String
  /// The request target as sent, e.g. `/auth/v1/token?grant_type=password`.
  package var uri: String
  package var headers: [(name: String, value: String)]
  package var body: [UInt8]
  /// True when the body was longer than the server's limit; `body` is then empty.
  package var bodyTooLarge: Bool

  package init(
    method: String, uri: String, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
    bodyTooLarge: Bool = false
  ) {
    self.method = method
    self.uri = uri
    self.headers = headers
    self.body = body
    self.bodyTooLarge = bodyTooLarge
  }

  /// The path without the query string, percent-decoding left to the caller.
  package var path: String {
    String(uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
  }

  /// The raw query string (after `?`), or "".
  package var rawQuery: String {
    let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    return parts.count > 1 ? String(parts[1]) : ""
  }

  /// Query items, form-decoded (`+` is a space), in order.
  package var queryItems: [(name: String, value: String)] { FormCoding.decode(rawQuery) }

  package func query(_ name: String) -> String? {
    queryItems.first { $0.name == name }?.value
  }

  /// The first header with this name, compared case-insensitively.
  package func header(_ name: String) -> String? {
    let lowered = name.lowercased()
    return headers.first { $0.name.lowercased() == lowered }?.value
  }
}

/// What the handler answers. `drop` closes the connection without any response (fault injection).
package struct ServerResponse: Sendable {
  package var status: Int
  package var headers: [(name: String, value: String)]
  package var body: [UInt8]
  package var drop: Bool

  package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], drop: Bool = false) {
    self.status = status
    self.headers = headers
    self.body = body
    self.drop = drop
  }

  package static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8")
    -> ServerResponse
  {
    ServerResponse(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
  }

  package static let dropConnection = ServerResponse(status: 0, drop: true)
}

/// `application/x-www-form-urlencoded` and query-string coding.
package enum FormCoding {
  package static func decode(_ text: String) -> [(name: String, value: String)] {
    guard !text.isEmpty else { return [] }
    return text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = percentDecode(String(parts[0]))
      let value = parts.count > 1 ? percentDecode(String(parts[1])) : ""
      return (name, value)
    }
  }

  /// Decodes `%XX` escapes and `+` as a space; invalid escapes are kept as they are.
  package static func percentDecode(_ text: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = Array(text.utf8)[...]
    while let byte = iterator.popFirst() {
      if byte == UInt8(ascii: "+") {
        bytes.append(0x20)
      } else if byte == UInt8(ascii: "%"), iterator.count >= 2,
        let high = hexValue(iterator[iterator.startIndex]),
        let low = hexValue(iterator[iterator.startIndex + 1])
      {
        bytes.append(high << 4 | low)
        iterator = iterator.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Percent-encodes everything but RFC 3986 unreserved characters.
  package static func percentEncode(_ text: String) -> String { text.percentEncoded(keeping: "-._~") }

  package static func encode(_ items: [(String, String)]) -> String {
    items.map { percentEncode($0.0) + "=" + percentEncode($0.1) }.joined(separator: "&")
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
