import AuthCore
import Essentials

/// Request URLs by their text and query: a shell or a script calls the same few endpoints again
/// and again, and parsing a URL is a good part of a call's own cost. Each is parsed once.
enum RequestURL {
  private struct Key: Hashable {
    var text: String
    var query: [URLQueryItem]
  }

  private static let known = Memo<Key, URL?>()

  /// `text` with `query` (none: as written), nil when it is not a URL.
  static func make(_ text: String, query: [URLQueryItem] = []) -> URL? {
    known.value(for: Key(text: text, query: query)) {
      guard var components = URLComponents(string: text) else { return nil }
      if !query.isEmpty { components.queryItems = query }
      return components.url
    }
  }
}
