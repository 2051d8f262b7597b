/// Whether a configured base URL can be sent to at all: http:// or https:// with a host. A bare
/// `host:port` (a common slip with `--url`) gets the scheme it most likely lacks suggested.
package enum EndpointCheck {
  /// nil when `text` is usable; otherwise a `config_error` naming the problem. `what` names the
  /// setting in the message ("The Supabase URL").
  package static func problem(_ text: String, what: String) -> AuthError? {
    // Every provider call checks its base URL, and it is the same URL call after call.
    checked.value(for: Checked(text: text, what: what)) { examine(text, what: what) }
  }

  private struct Checked: Hashable, Sendable {
    var text: String
    var what: String
  }

  private static let checked = Memo<Checked, AuthError?>()

  static func examine(_ text: String, what: String) -> AuthError? {
    guard let separator = schemeSeparator(in: text) else {
      let host = String(text.split(separator: "/", maxSplits: 1).first ?? "")
      let hostOnly = host.hasPrefix("[") ? host : String(host.split(separator: ":").first ?? "")
      let scheme = HostPolicy.isLoopback(hostOnly) ? "http://" : "https://"
      return AuthError(
        .configError, message: "\(what) '\(text)' does not start with http:// or https://.",
        hint: "Did you mean \(scheme)\(text)?")
    }
    let scheme = text[..<separator.lowerBound].lowercased()
    guard scheme == "http" || scheme == "https" else {
      return AuthError(
        .configError, message: "\(what) '\(text)' uses the unsupported scheme '\(scheme)'.",
        hint: "authsh speaks http:// (local emulators) and https:// (hosted projects).")
    }
    let rest = text[separator.upperBound...]
    if rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix(":") {
      return AuthError(.configError, message: "\(what) '\(text)' has no host name.")
    }
    return nil
  }

  /// Where the first "://" is: a byte search (every request checks its URL; the generic
  /// substring searches cost more than the rest of the check).
  static func schemeSeparator(in text: String) -> Range<String.Index>? {
    let bytes = text.utf8
    var index = bytes.startIndex
    while index != bytes.endIndex {
      if bytes[index] == UInt8(ascii: ":"), bytes[bytes.index(after: index)...].starts(with: "//".utf8) {
        return index..<bytes.index(index, offsetBy: 3)
      }
      index = bytes.index(after: index)
    }
    return nil
  }
}
