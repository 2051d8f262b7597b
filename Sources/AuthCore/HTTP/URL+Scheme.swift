import Foundation

extension URL {
  /// Whether the URL's scheme is `name` (given in lowercase ASCII letters), in any case, without
  /// making a lowercased copy: each request asks a few times.
  public func hasScheme(_ name: String) -> Bool {
    guard let scheme else { return false }
    // A byte with 0x20 set equal to a lowercase letter is that letter in either case.
    return scheme.utf8.elementsEqual(name.utf8) { $0 | 0x20 == $1 }
  }
}
