import Essentials

extension URL {
  /// Whether the URL's scheme is `name` (given in lowercase), in any case, without making a
  /// lowercased copy: each request asks a few times.
  package func hasScheme(_ name: String) -> Bool {
    guard let scheme else { return false }
    return spellsInAnyCase(scheme.utf8, name)
  }

  /// What an HTTP/1.1 request line names: the percent-encoded path (`/` when empty) and query.
  package var requestTarget: String {
    var target = path(percentEncoded: true)
    if target.isEmpty { target = "/" }
    if let query = query(percentEncoded: true) { target += "?" + query }
    return target
  }
}

/// Whether `bytes` are `word` (given in lowercase) with any of its ASCII letters in either case:
/// URL schemes and host names, compared without a lowercased copy.
func spellsInAnyCase<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ word: String) -> Bool {
  bytes.elementsEqual(word.utf8) { ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }
}
