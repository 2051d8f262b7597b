import Essentials

package struct HTTPRequest: Sendable {
  package var method: String
  package var url: URL
  package var headers: [(name: String, value: String)]
  package var body: [UInt8]?
  /// Whole-request deadline in seconds.
  package var timeout: Double

  package init(
    method: String, url: URL, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil, timeout: Double = 30
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.timeout = timeout
  }

  /// The deadline a transport applies, in seconds: `timeout` within [1 ms, `Target.maximumTimeout`]
  /// (callers check the range; clamped anyway so no value can trap a conversion), 30 s if not
  /// finite. `--timeout 500ms` is half a second, not a whole one.
  package var deadlineSeconds: Double {
    timeout.isFinite ? min(max(0.001, timeout), Target.maximumTimeout) : 30
  }

  package func header(_ name: String) -> String? {
    headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
  }

  /// The first header HTTP cannot carry as it is: a name that is not a token, or a value with a
  /// control character other than tab (a line break would start a header of its own, or end the
  /// head). Every transport checks it before sending (libcurl sends header lines as given) and
  /// throws `TransportFailure.unsendableHeader`.
  package var unsendableHeader: String? {
    headers.first { !Self.isToken($0.name) || !Self.isValue($0.value) }?.name
  }

  static func isToken(_ name: String) -> Bool {
    !name.isEmpty
      && name.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"):
          return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
          UInt8(ascii: "'"),
          UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"),
          UInt8(ascii: "_"),
          UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
          return true
        default:
          return false
        }
      }
  }

  /// Eight bytes at a time (a token is a kilobyte, and goes out with every request): a word
  /// with no byte under 0x20 and none equal to 0x7F is fine as it is; any other is looked at
  /// byte by byte. (The word tests never miss such a byte; they may flag a word that has none.)
  static func isValue(_ value: String) -> Bool {
    var text = value
    return text.withUTF8 { bytes in
      func fine(_ byte: UInt8) -> Bool { byte == 0x09 || (byte >= 0x20 && byte != 0x7F) }
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      var offset = 0
      if let base = bytes.baseAddress {
        while offset + 8 <= bytes.count {
          let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
          let below = (word &- 0x20 &* ones) & ~word & highs
          let deleted = word ^ (0x7F &* ones)
          let equal = (deleted &- ones) & ~deleted & highs
          if below | equal != 0, !bytes[offset..<offset + 8].allSatisfy(fine) { return false }
          offset += 8
        }
      }
      return bytes[offset...].allSatisfy(fine)
    }
  }
}

package struct HTTPResponse: Sendable {
  package var status: Int
  package var headers: [(name: String, value: String)]
  package var body: [UInt8]

  package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  package func header(_ name: String) -> String? {
    headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
  }

  package var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// Why a request got no HTTP answer.
package enum TransportFailure: Error, Sendable, Equatable {
  /// No network, no route, or a cause the transport cannot tell apart.
  case unreachable(String)
  /// Nothing listens on the host and port (connection refused).
  case refused(String)
  /// The host name did not resolve.
  case hostNotFound(String)
  case timedOut
  case cancelled
  /// The connection closed before a complete answer.
  case connectionLost(String)
  /// No trusted TLS connection: the certificate did not verify, or the handshake failed.
  case tls(String)
  /// The HTTP client library this transport loads at run time is not installed (why, from the loader).
  case clientMissing(String)
  /// The answer's body was larger than the transport reads (`bytes`, the limit).
  case tooLarge(bytes: Int)
  /// Nothing was sent: the header named holds what HTTP cannot carry (`HTTPRequest.unsendableHeader`).
  case unsendableHeader(String)
  case other(String)
}

/// Sends one HTTP request. The only way providers reach the network.
package protocol HTTPTransport: Sendable {
  func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// Which hosts may receive credentials over plain HTTP.
package enum HostPolicy {
  /// `localhost`, a dotted-quad IPv4 literal in 127.0.0.0/8, or `::1` (bracketed or not), in any
  /// case. Nothing else: a name is resolved by whoever controls DNS or /etc/hosts, so
  /// `127.evil.test` or `api.localhost` may lead anywhere.
  package static func isLoopback(_ host: String) -> Bool {
    // Compared as ASCII bytes (a host in a URL is ASCII), ignoring case: every request asks.
    var bare = host.utf8[...]
    if bare.first == UInt8(ascii: "["), bare.last == UInt8(ascii: "]"), bare.count >= 2 {
      bare = bare.dropFirst().dropLast()
      return spellsInAnyCase(bare, "::1")
    }
    return spellsInAnyCase(bare, "localhost") || spellsInAnyCase(bare, "::1") || isLoopbackIPv4(bare)
  }

  /// Four decimal octets of 0...255 without leading zeros (which some resolvers read as octal),
  /// the first 127.
  static func isLoopbackIPv4(_ bytes: Substring.UTF8View) -> Bool {
    let octets = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard octets.count == 4 else { return false }
    var values: [Int] = []
    for octet in octets {
      guard (1...3).contains(octet.count), octet.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
        octet.count == 1 || octet.first != UInt8(ascii: "0")
      else { return false }
      let value = octet.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
      guard value <= 255 else { return false }
      values.append(value)
    }
    return values[0] == 127
  }

  /// The `insecure_url` error for `http://` to a non-loopback host (nil for any other URL): what
  /// is refused unless `--allow-insecure-http` allows it.
  package static func refusal(_ url: URL) -> AuthError? {
    guard url.hasScheme("http") else { return nil }
    let host = url.host ?? ""
    guard !isLoopback(host) else { return nil }
    return AuthError(
      .insecureURL,
      message: "Refusing to send credentials over plain HTTP to \(host) (use https, or --allow-insecure-http)")
  }
}
