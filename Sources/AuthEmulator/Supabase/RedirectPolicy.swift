import Essentials

/// GoTrue's `IsRedirectURLValid` (`utilities/request.go`): a mail link may send the browser back to
/// the site URL (same scheme and host; any port on loopback), to a loopback IP address, or to an
/// address matching the allow-list. Everything else falls back to the site URL.
enum RedirectPolicy {
  static func isValid(_ redirect: String, siteURL: String, allowList: [String]) -> Bool {
    // Go's url.Parse refuses a control character ("invalid control character in URL"), so GoTrue
    // falls back to the site URL; a CR LF must never reach a Location header either.
    guard !redirect.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return false }
    guard !redirect.isEmpty, let target = URLComponents(string: redirect), let site = URLComponents(string: siteURL)
    else {
      return false
    }
    let host = (target.host ?? "").trimming { $0 == "[" || $0 == "]" }
    let scheme = (target.scheme ?? "").lowercased()
    if !host.isEmpty, host == site.host, scheme == site.scheme?.lowercased(),
      target.port == site.port || isLocalhost(host)
    {
      return true
    }
    if !host.isEmpty, host.allSatisfy(\.isNumber) { return false }  // a decimal IP address
    if isIPAddress(host) { return isLoopback(host) }
    let isHTTP = scheme == "http" || scheme == "https"
    if isHTTP && !isRegularHostname(host) { return false }
    let withoutFragment = String(redirect.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
    return allowList.contains { Glob(pattern: $0).matches(withoutFragment) }
  }

  static func isLocalhost(_ host: String) -> Bool { host == "localhost" || isLoopback(host) }

  private static func isIPAddress(_ host: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
  }

  private static func isLoopback(_ host: String) -> Bool {
    if host == "::1" { return true }
    var v4 = in_addr()
    guard inet_pton(AF_INET, host, &v4) == 1 else { return false }
    return UInt32(bigEndian: v4.s_addr) >> 24 == 127
  }

  /// `^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$`
  private static func isRegularHostname(_ host: String) -> Bool {
    let bytes = Array(host.utf8)
    func alnum(_ byte: UInt8) -> Bool {
      (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
    guard let first = bytes.first, let last = bytes.last, alnum(first), alnum(last) else { return false }
    return bytes.allSatisfy { alnum($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
  }
}

/// The subset of `gobwas/glob` (separators `.` and `/`) GoTrue's allow-list uses: `**` matches
/// anything, `*` anything but a separator, `?` one non-separator character; the rest is literal.
struct Glob {
  let pattern: [Character]

  init(pattern: String) { self.pattern = Array(pattern) }

  func matches(_ text: String) -> Bool {
    let text = Array(text)
    // Positions in the text reachable after each pattern element (a set: no backtracking blow-up).
    var positions: Set<Int> = [0]
    var index = 0
    while index < pattern.count, !positions.isEmpty {
      let character = pattern[index]
      var next: Set<Int> = []
      if character == "*" {
        let crossesSeparators = index + 1 < pattern.count && pattern[index + 1] == "*"
        if crossesSeparators { index += 1 }
        for start in positions {
          next.insert(start)
          var end = start
          while end < text.count, crossesSeparators || !Self.isSeparator(text[end]) {
            end += 1
            next.insert(end)
          }
        }
      } else {
        for position in positions where position < text.count {
          if character == "?" ? !Self.isSeparator(text[position]) : text[position] == character {
            next.insert(position + 1)
          }
        }
      }
      positions = next
      index += 1
    }
    return positions.contains(text.count)
  }

  private static func isSeparator(_ character: Character) -> Bool { character == "." || character == "/" }
}
