import AuthCore
import Foundation

/// Request URLs by their text and query: a shell or a script calls the same few endpoints again
/// and again, and parsing a URL is a good part of a call's own cost. Each is parsed once.
enum RequestURL {
  private struct Key: Hashable {
    var text: String
    var query: [URLQueryItem]
  }

  private static let known = Guarded<[Key: URL]>([:])

  /// `text` with `query` (none: as written), nil when it is not a URL.
  static func make(_ text: String, query: [URLQueryItem] = []) -> URL? {
    let key = Key(text: text, query: query)
    if let url = known.update({ $0[key] }) { return url }
    guard var components = URLComponents(string: text) else { return nil }
    if !query.isEmpty { components.queryItems = query }
    guard let url = components.url else { return nil }
    known.update { urls in
      if urls.count >= 64 { urls.removeAll() }
      urls[key] = url
    }
    return url
  }
}
