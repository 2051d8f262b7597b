/// Path arithmetic on plain strings. Foundation's `NSString` path methods trap on some inputs
/// (found by the parser fuzz test), and include paths are user text, so these never trap.
package enum PathText {
  /// `a/b/c.auth` → `c.auth`.
  package static func lastComponent(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }

  /// `directory/relative`, or `relative` itself when it is absolute or there is no directory.
  package static func join(_ directory: String, _ relative: String) -> String {
    if relative.hasPrefix("/") || directory.isEmpty { return relative }
    return directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
  }

  /// `a/b/../c` → `a/c`, `./a` → `a` (relative paths stay relative; leading `..` is kept).
  package static func normalize(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      if part == "." { continue }
      if part == "..", let last = parts.last, last != ".." {
        parts.removeLast()
      } else if part == "..", path.hasPrefix("/") {
        continue
      } else {
        parts.append(part)
      }
    }
    let joined = parts.joined(separator: "/")
    return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
  }
}
